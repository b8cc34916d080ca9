package dev.cloakgate.testing;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import opennlp.tools.namefind.NameFinderME;
import opennlp.tools.namefind.NameSample;
import opennlp.tools.namefind.TokenNameFinderFactory;
import opennlp.tools.namefind.TokenNameFinderModel;
import opennlp.tools.util.CollectionObjectStream;
import opennlp.tools.util.Span;
import opennlp.tools.util.TrainingParameters;

/** A valid OpenNLP name-finder model that has learnt nothing useful: it loads, and detects no names. */
public final class UselessModel {
    private UselessModel() {
    }

    public static void write(Path file) throws IOException {
        List<NameSample> samples = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            // the only "person" it ever saw is the token zzqx; real names look nothing like it
            samples.add(new NameSample(new String[] { "zzqx", "said", "hello", String.valueOf(i) },
                    new Span[] { new Span(0, 1, "person") }, false));
            samples.add(new NameSample(new String[] { "the", "call", "was", "assigned", "to", "someone" }, new Span[0], false));
        }
        TrainingParameters p = TrainingParameters.defaultParams();
        p.put(TrainingParameters.ITERATIONS_PARAM, 10);
        p.put(TrainingParameters.CUTOFF_PARAM, 0);
        TokenNameFinderModel model = NameFinderME.train("en", "person", new CollectionObjectStream<>(samples), p,
                new TokenNameFinderFactory());
        try (OutputStream out = Files.newOutputStream(file)) {
            model.serialize(out);
        }
    }
}
