package dev.cloakgate.server;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * What a native image cannot find on its own (issue 12, native readiness). OpenNLP builds a name-finder model from
 * class names written in the model file (its manifest's factory, sequence codec and artifact serializers, and every
 * generator of its feature-generator descriptor) through {@code Class.forName} and a no-argument constructor:
 * those are registered here, with every feature-generator factory OpenNLP ships, so an operator's
 * {@code person_model} built from other generators loads too. The bundled model and libphonenumber's metadata are
 * resources, registered in application.properties ({@code quarkus.native.resources.includes}). The rest needs
 * nothing here: Jackson is used as trees only (no bean introspection), BouncyCastle through its lightweight API
 * (no JCA provider), and the SQLite driver and json-schema-validator carry their own native-image configuration.
 * {@code NativeSourcesTest} checks all of it in the native build's generated configuration.
 */
@RegisterForReflection(classNames = {
        "opennlp.tools.namefind.TokenNameFinderFactory",
        "opennlp.tools.namefind.BioCodec",
        "opennlp.tools.namefind.BilouCodec",
        "opennlp.tools.util.model.DictionarySerializer",
        "opennlp.tools.util.featuregen.AggregatedFeatureGeneratorFactory",
        "opennlp.tools.util.featuregen.BigramNameFeatureGeneratorFactory",
        "opennlp.tools.util.featuregen.BrownClusterBigramFeatureGeneratorFactory",
        "opennlp.tools.util.featuregen.BrownClusterTokenClassFeatureGeneratorFactory",
        "opennlp.tools.util.featuregen.BrownClusterTokenFeatureGeneratorFactory",
        "opennlp.tools.util.featuregen.CachedFeatureGeneratorFactory",
        "opennlp.tools.util.featuregen.CharacterNgramFeatureGeneratorFactory",
        "opennlp.tools.util.featuregen.DefinitionFeatureGeneratorFactory",
        "opennlp.tools.util.featuregen.DictionaryFeatureGeneratorFactory",
        "opennlp.tools.util.featuregen.DocumentBeginFeatureGeneratorFactory",
        "opennlp.tools.util.featuregen.POSTaggerNameFeatureGeneratorFactory",
        "opennlp.tools.util.featuregen.PosTaggerFeatureGeneratorFactory",
        "opennlp.tools.util.featuregen.PrefixFeatureGeneratorFactory",
        "opennlp.tools.util.featuregen.PreviousMapFeatureGeneratorFactory",
        "opennlp.tools.util.featuregen.SentenceFeatureGeneratorFactory",
        "opennlp.tools.util.featuregen.SuffixFeatureGeneratorFactory",
        "opennlp.tools.util.featuregen.TokenClassFeatureGeneratorFactory",
        "opennlp.tools.util.featuregen.TokenFeatureGeneratorFactory",
        "opennlp.tools.util.featuregen.TokenPatternFeatureGeneratorFactory",
        "opennlp.tools.util.featuregen.TrigramNameFeatureGeneratorFactory",
        "opennlp.tools.util.featuregen.WindowFeatureGeneratorFactory",
        "opennlp.tools.util.featuregen.WordClusterFeatureGeneratorFactory"
})
final class NativeImageRegistrations {
    private NativeImageRegistrations() {
    }
}
