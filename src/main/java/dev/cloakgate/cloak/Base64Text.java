package dev.cloakgate.cloak;

/** Whether a string is plausibly base64 (standard or URL alphabet), so skipping it as binary is safe. */
final class Base64Text {
    private Base64Text() {
    }

    static boolean looksLike(String s) {
        int n = s.length();
        int chars = 0;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '/'
                    || c == '-' || c == '_') {
                chars++;
            } else if (c == '=') {
                if (i < n - 2) {
                    return false;
                }
            } else if (c != '\n' && c != '\r') {
                // text (spaces, '@', punctuation) is not base64: walk it like any string
                return false;
            }
        }
        return chars > 0;
    }
}
