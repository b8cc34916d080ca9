package dev.cloakgate.cloak.detect;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/** A login is a person's where the text says it is a login; service accounts and prose are not. */
class LoginContextsTest {

    private static List<String> logins(String line) {
        List<int[]> out = new ArrayList<>();
        LoginContexts.find(line, 0, line.length(), out);
        List<String> values = new ArrayList<>();
        for (int[] f : out) {
            values.add(line.substring(f[0], f[1]));
        }
        return values;
    }

    @Test
    void homeDirectoriesAndMailboxes() {
        assertEquals(List.of("tkowalski"), logins("cat /home/tkowalski/.ssh/id_ed25519"));
        assertEquals(List.of("ana.lima"), logins("C:\\Users\\ana.lima\\Documents\\cv.pdf"));
        assertEquals(List.of("ppatel"), logins("/var/mail/ppatel"));
        assertEquals(List.of(), logins("/home/deploy/app and /home/svc-backup/ and /Users/Shared/"));
    }

    @Test
    void listingOwnersAndTheirOwnGroup() {
        assertEquals(List.of("hmuller", "hmuller"), logins("drwxr-x---  5 hmuller   hmuller   4096 Nov 28 10:15 x"));
        assertEquals(List.of("hmuller"), logins("-rw-r----- 1 hmuller  finance  184233 Mar  4  2024 a.pdf"));
        assertEquals(List.of(), logins("-rw-r--r-- 1 root root 220 Jan 1 .bashrc"));
    }

    @Test
    void authenticationLogsAndKeyedValues() {
        assertEquals(List.of("rnakamura"), logins("sshd[1]: Accepted publickey for rnakamura from 10.1.2.3 port 5"));
        assertEquals(List.of("s.okoro"), logins("pam_unix(sshd:session): session opened for user s.okoro(uid=1021)"));
        assertEquals(List.of("lbrandt"), logins("audit: user=lbrandt op=login res=success"));
        assertEquals(List.of("vdias"), logins("username: \"vdias\""));
        assertEquals(List.of("emre-k"), logins("cc @emre-k for review"));
    }

    @Test
    void proseAndSoftwareAreNotLogins() {
        assertEquals(List.of(), logins("the user clicks save and the login page reloads"));
        assertEquals(List.of(), logins("import '@types/node' and run as user=root"));
        assertEquals(List.of(), logins("@Override public void run()"));
        assertEquals(List.of(), logins("owner: Finance"));
    }
}
