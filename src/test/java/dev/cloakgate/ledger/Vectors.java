package dev.cloakgate.ledger;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;

/**
 * The RFC 6962 reference test vectors used by the certificate-transparency implementations (published in
 * transparency-dev/merkle testonly/constants.go and the CT log verifier tests; copied here as data). They are not
 * printed in RFC 6962 itself.
 */
final class Vectors {

    private Vectors() {
    }

    static final List<byte[]> LEAVES = hexes("", "00", "10", "2021", "3031", "40414243", "5051525354555657",
            "606162636465666768696a6b6c6d6e6f");

    /** ROOTS.get(n) is the root of the first n leaves. */
    static final List<byte[]> ROOTS = hexes(
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
            "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
            "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
            "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
            "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
            "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
            "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
            "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
            "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328");

    record Inclusion(long index, long size, List<byte[]> path) {
    }

    record Consistency(long first, long second, List<byte[]> proof) {
    }

    /** Published audit paths (0-based leaf index). */
    static final List<Inclusion> INCLUSION = List.of(
            new Inclusion(0, 1, List.of()),
            new Inclusion(0, 8, hexes("96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
                    "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
                    "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4")),
            new Inclusion(5, 8, hexes("bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
                    "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
                    "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7")),
            new Inclusion(2, 3, hexes("fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125")),
            new Inclusion(1, 5, hexes("6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
                    "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
                    "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b")));

    /** Published consistency proofs. */
    static final List<Consistency> CONSISTENCY = List.of(
            new Consistency(1, 1, List.of()),
            new Consistency(1, 8, hexes("96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
                    "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
                    "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4")),
            new Consistency(6, 8, hexes("0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
                    "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
                    "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7")),
            new Consistency(2, 5, hexes("5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
                    "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b")));

    static List<byte[]> hexes(String... hex) {
        List<byte[]> out = new ArrayList<>();
        for (String h : hex) {
            out.add(HexFormat.of().parseHex(h));
        }
        return List.copyOf(out);
    }

    static String hex(byte[] b) {
        return HexFormat.of().formatHex(b);
    }

    static List<String> hex(List<byte[]> bs) {
        return bs.stream().map(Vectors::hex).toList();
    }

    /** n random 32-byte entry hashes: the ledger's actual leaf data. */
    static List<byte[]> entryHashes(Random random, int n) {
        List<byte[]> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            byte[] h = new byte[32];
            random.nextBytes(h);
            out.add(h);
        }
        return out;
    }

    /** A tree and its leaf store, filled with {@code data}. */
    record Built(MerkleTree tree, InMemoryLeafSource leaves, MerkleProofs proofs) {
    }

    static Built build(List<byte[]> data) {
        MerkleTree tree = new MerkleTree();
        InMemoryLeafSource leaves = new InMemoryLeafSource();
        for (byte[] d : data) {
            leaves.add(tree.append(d));
        }
        return new Built(tree, leaves, new MerkleProofs(leaves));
    }
}
