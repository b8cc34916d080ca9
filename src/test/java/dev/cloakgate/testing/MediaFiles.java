package dev.cloakgate.testing;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

import javax.imageio.ImageIO;
import javax.sound.sampled.AudioFileFormat;
import javax.sound.sampled.AudioFormat;
import javax.sound.sampled.AudioInputStream;
import javax.sound.sampled.AudioSystem;

/** Real media files, written by the JDK's own encoders: a noisy PNG and a 16-bit PCM WAV tone. */
public final class MediaFiles {
    private MediaFiles() {
    }

    public static byte[] png() {
        BufferedImage img = new BufferedImage(64, 48, BufferedImage.TYPE_INT_RGB);
        Random r = new Random(7);
        for (int y = 0; y < img.getHeight(); y++) {
            for (int x = 0; x < img.getWidth(); x++) {
                img.setRGB(x, y, r.nextInt(0xFFFFFF));
            }
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            ImageIO.write(img, "png", out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    public static byte[] wav() {
        byte[] pcm = new byte[16000];
        for (int i = 0; i < pcm.length / 2; i++) {
            short s = (short) (Math.sin(i / 8.0) * 12000);
            pcm[2 * i] = (byte) s;
            pcm[2 * i + 1] = (byte) (s >> 8);
        }
        AudioFormat f = new AudioFormat(44100, 16, 1, true, false);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            AudioSystem.write(new AudioInputStream(new ByteArrayInputStream(pcm), f, pcm.length / 2),
                    AudioFileFormat.Type.WAVE, out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    public static void writePng(Path file) throws IOException {
        Files.write(file, png());
    }

    public static void writeWav(Path file) throws IOException {
        Files.write(file, wav());
    }
}
