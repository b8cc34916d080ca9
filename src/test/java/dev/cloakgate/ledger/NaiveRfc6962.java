package dev.cloakgate.ledger;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;

/**
 * RFC 6962 section 2.1 transcribed as plainly as possible (recursive MTH, PATH, SUBPROOF over lists of leaf
 * data), sharing no code with the ledger, so the two can be checked against each other. Slow on purpose.
 */
final class NaiveRfc6962 {

    private NaiveRfc6962() {
    }

    static byte[] sha256(byte[]... parts) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            for (byte[] p : parts) {
                md.update(p);
            }
            return md.digest();
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }

    static byte[] leafHash(byte[] data) {
        return sha256(new byte[] {0x00}, data);
    }

    // "k be the largest power of two smaller than n (i.e., k < n <= 2k)"
    static int k(int n) {
        int k = 1;
        while (k * 2 < n) {
            k *= 2;
        }
        return k;
    }

    static byte[] mth(List<byte[]> d) {
        int n = d.size();
        if (n == 0) {
            return sha256();
        }
        if (n == 1) {
            return leafHash(d.get(0));
        }
        int k = k(n);
        return sha256(new byte[] {0x01}, mth(d.subList(0, k)), mth(d.subList(k, n)));
    }

    static List<byte[]> path(int m, List<byte[]> d) {
        int n = d.size();
        List<byte[]> out = new ArrayList<>();
        if (n == 1) {
            return out;
        }
        int k = k(n);
        if (m < k) {
            out.addAll(path(m, d.subList(0, k)));
            out.add(mth(d.subList(k, n)));
        } else {
            out.addAll(path(m - k, d.subList(k, n)));
            out.add(mth(d.subList(0, k)));
        }
        return out;
    }

    static List<byte[]> proof(int m, List<byte[]> d) {
        return subproof(m, d, true);
    }

    static List<byte[]> subproof(int m, List<byte[]> d, boolean b) {
        int n = d.size();
        List<byte[]> out = new ArrayList<>();
        if (m == n) {
            if (!b) {
                out.add(mth(d));
            }
            return out;
        }
        int k = k(n);
        if (m <= k) {
            out.addAll(subproof(m, d.subList(0, k), b));
            out.add(mth(d.subList(k, n)));
        } else {
            out.addAll(subproof(m - k, d.subList(k, n), false));
            out.add(mth(d.subList(0, k)));
        }
        return out;
    }
}
