package dev.cloakgate.deploy;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;

/**
 * The gateway container of a rendered chart laid out on this machine: each ConfigMap and Secret volume written
 * where its mount path points (under a scratch directory standing in for the container's root), and the
 * container's environment resolved as the kubelet would (values, Secret keys), with the mount paths mapped. Only
 * what the chart itself renders goes in; a Secret the chart does not make is given as {@code external}, as the
 * platform team would create it.
 */
record PodFiles(Path root, Map<String, String> env) {

    static PodFiles lay(HelmChart.Rendered rendered, Map<String, Map<String, String>> external, Path root) {
        StatefulSet sts = rendered.one(StatefulSet.class);
        Container c = sts.getSpec().getTemplate().getSpec().getContainers().get(0);
        Map<String, Volume> volumes = new HashMap<>();
        sts.getSpec().getTemplate().getSpec().getVolumes().forEach(v -> volumes.put(v.getName(), v));
        Map<String, Map<String, String>> secrets = new HashMap<>(external);
        for (Secret s : rendered.all(Secret.class)) {
            Map<String, String> data = new LinkedHashMap<>();
            s.getData().forEach((k, v) -> data.put(k, new String(Base64.getMimeDecoder().decode(v), UTF_8)));
            secrets.put(s.getMetadata().getName(), data);
        }
        Map<String, Map<String, String>> configMaps = new HashMap<>();
        rendered.all(ConfigMap.class).forEach(m -> configMaps.put(m.getMetadata().getName(),
                m.getData() == null ? Map.of() : m.getData()));

        Map<String, Path> mounts = new LinkedHashMap<>();
        try {
            for (VolumeMount m : c.getVolumeMounts()) {
                Path local = root.resolve(m.getMountPath().substring(1));
                Files.createDirectories(local);
                mounts.put(m.getMountPath(), local);
            }
            for (VolumeMount m : c.getVolumeMounts()) {
                Volume v = volumes.get(m.getName());
                Map<String, String> files = v == null ? null
                        : v.getConfigMap() != null ? required(configMaps, v.getConfigMap().getName(), "ConfigMap")
                        : v.getSecret() != null ? required(secrets, v.getSecret().getSecretName(), "Secret")
                        : null;
                if (files != null) {
                    atomicWriterLayout(mounts.get(m.getMountPath()), files, mounts);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, String> env = new LinkedHashMap<>();
        for (EnvVar e : c.getEnv()) {
            if (e.getValueFrom() != null && e.getValueFrom().getFieldRef() != null) {
                // issue 17: the downward API; the first pod of the StatefulSet
                String field = e.getValueFrom().getFieldRef().getFieldPath();
                if (!"metadata.name".equals(field)) {
                    throw new AssertionError("env " + e.getName() + ": field " + field + " is not laid out here");
                }
                env.put(e.getName(), rendered.one(io.fabric8.kubernetes.api.model.apps.StatefulSet.class).getMetadata().getName() + "-0");
            } else if (e.getValueFrom() != null) {
                var ref = e.getValueFrom().getSecretKeyRef();
                String value = required(secrets, ref.getName(), "Secret").get(ref.getKey());
                if (value == null) {
                    throw new AssertionError("env " + e.getName() + ": Secret " + ref.getName() + " has no key " + ref.getKey());
                }
                env.put(e.getName(), value);
            } else {
                env.put(e.getName(), mapPaths(e.getValue(), mounts));
            }
        }
        return new PodFiles(root, env);
    }

    /**
     * A ConfigMap or Secret volume as the kubelet writes it: the files in a timestamped directory, {@code ..data}
     * a symlink to it, and each key a symlink through {@code ..data} (what lets an update swap all files at once).
     */
    private static void atomicWriterLayout(Path dir, Map<String, String> files, Map<String, Path> mounts) throws IOException {
        Path version = Files.createDirectories(dir.resolve("..2026_12_01_00_00_00.000000001"));
        Files.createSymbolicLink(dir.resolve("..data"), version.getFileName());
        for (var f : files.entrySet()) {
            Files.writeString(version.resolve(f.getKey()), mapPaths(f.getValue(), mounts));
            Files.createSymbolicLink(dir.resolve(f.getKey()), Path.of("..data", f.getKey()));
        }
    }

    /** Runs {@code java dev.cloakgate.server.Main args} in a child JVM with exactly the container's environment. */
    Result run(String... args) {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djava.util.logging.manager=org.jboss.logmanager.LogManager", "-cp", System.getProperty("java.class.path"),
                "dev.cloakgate.server.Main"));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(root.toFile());
        pb.environment().clear();
        pb.environment().put("PATH", System.getenv("PATH"));
        pb.environment().putAll(env);
        pb.redirectOutput(root.resolve("out.txt").toFile()).redirectError(root.resolve("err.txt").toFile());
        try {
            Process p = pb.start();
            if (!p.waitFor(300, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError("--check did not finish in 300 s");
            }
            return new Result(p.exitValue(), Files.readString(root.resolve("out.txt")), Files.readString(root.resolve("err.txt")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    record Result(int exit, String out, String err) {
    }

    private static <T> T required(Map<String, T> byName, String name, String kind) {
        T t = byName.get(name);
        if (t == null) {
            throw new AssertionError("the pod mounts " + kind + " " + name + ", which is neither rendered nor given");
        }
        return t;
    }

    /**
     * Container paths under a mount, at the start of a value or of a JSON string, as the same files on this machine;
     * one pass, so a mapped path is never mapped again.
     */
    private static String mapPaths(String text, Map<String, Path> mounts) {
        if (text == null) {
            return null;
        }
        List<String> paths = new ArrayList<>(mounts.keySet());
        paths.sort((a, b) -> b.length() - a.length());
        StringBuilder alternation = new StringBuilder();
        for (String m : paths) {
            alternation.append(alternation.isEmpty() ? "" : "|").append(java.util.regex.Pattern.quote(m));
        }
        var pattern = java.util.regex.Pattern.compile("(?<=^|\")(" + alternation + ")(?=/|\"|$)");
        return pattern.matcher(text).replaceAll(r -> java.util.regex.Matcher.quoteReplacement(mounts.get(r.group(1)).toString()));
    }
}
