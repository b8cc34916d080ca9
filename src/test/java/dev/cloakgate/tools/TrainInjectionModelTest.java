package dev.cloakgate.tools;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.cloakgate.policy.control.InjectionClassifier;
import dev.cloakgate.tools.InjectionCorpus.Example;
import dev.cloakgate.tools.InjectionCorpus.Sizes;
import dev.cloakgate.tools.InjectionCorpus.Split;

/** The injection model's training is deterministic: the same data gives the same bytes. */
class TrainInjectionModelTest {

    private static final Map<Split, Sizes> SMALL = Map.of(Split.TRAIN, new Sizes(80, 80), Split.VALIDATION, new Sizes(20, 30),
            Split.HELDOUT, new Sizes(10, 10));

    @Test
    void trainingTwiceOnASubsetGivesTheSameModelBytes() {
        List<Example> corpus = InjectionCorpus.build(TrainInjectionModel.SEED, SMALL, null);
        byte[] first = TrainInjectionModel.train(corpus, TrainInjectionModel.SEED);
        byte[] second = TrainInjectionModel.train(InjectionCorpus.build(TrainInjectionModel.SEED, SMALL, null),
                TrainInjectionModel.SEED);
        assertArrayEquals(first, second);
        assertTrue(InjectionClassifier.load(first).threshold() >= 0.5);
    }

    @Test
    void everySplitHasBothClassesInEveryLanguage() {
        List<Example> corpus = InjectionCorpus.build(TrainInjectionModel.SEED, SMALL, null);
        for (String lang : List.of("en", "fr", "es", "de", "zh")) {
            for (Split split : Split.values()) {
                for (boolean injection : new boolean[] { true, false }) {
                    assertTrue(corpus.stream().anyMatch(e -> e.lang().equals(lang) && e.split() == split && e.injection() == injection),
                            lang + " " + split + " " + injection);
                }
            }
        }
    }

    @Test
    void missingPublicDataSaysWhereItIsKept() {
        IllegalStateException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                () -> InjectionCorpus.build(TrainInjectionModel.SEED, SMALL, java.nio.file.Path.of("target/no-such-public.tsv")));
        assertTrue(e.getMessage().contains("shared/injection/public.tsv"), e.getMessage());
    }
}
