package dev.cloakgate.tools;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.function.Supplier;

import net.datafaker.Faker;

/**
 * Document templates and non-person vocabulary for {@link PersonCorpus}.
 *
 * <h2>Template syntax</h2>
 * A template is a text block; each line renders to one line of tool output.
 * <ul>
 *   <li>Person placeholders carry a cast index 1..3 (same index = same person within a document):
 *       {@code {P1}} full name, {@code {F1}} given name, {@code {N1}} given or full name (as in
 *       greetings and chat), {@code {L1}} family name,
 *       {@code {LF1}} "Family, Given", {@code {IL1}} "G. Family", {@code {R1}} any of the ways prose
 *       refers to someone (sometimes with a title), {@code {TL1}} / {@code {TP1}} title + family /
 *       full name. Only the name is a span; the title never is.</li>
 *   <li>{@code {E1}} and {@code {U1}} are that person's e-mail address and login. They are derived
 *       from the name but are NOT person spans ("user=jane.doe" is a login).</li>
 *   <li>Any other {@code {NAME}} draws a non-person value from {@link Vocabulary}.</li>
 *   <li>A line starting with {@code ?} is optional (50%); a line starting with {@code *} is a table
 *       row repeated 2-6 times, each time about new people.</li>
 * </ul>
 *
 * <h2>Splits</h2>
 * TRAIN and HELDOUT templates are disjoint, and HELDOUT adds formats that training never shows
 * (vCard, logfmt, XML, SQL, HTML, WhatsApp export, ...). Vocabulary lists have a held-out-only tail,
 * so the held-out set also contains places, organisations and products the model never saw.
 */
final class PersonCorpusTemplates {

    private PersonCorpusTemplates() {
    }

    /** @param locale forces the document locale (names mostly from it), or null for a random one */
    record DocTemplate(String id, String family, String locale, List<String> lines) {}

    static List<DocTemplate> templates(PersonCorpus.Split split) {
        return split == PersonCorpus.Split.TRAIN ? TRAIN : HELDOUT;
    }

    private static DocTemplate doc(String id, String family, String block) {
        return new DocTemplate(id, family, null, List.of(block.stripTrailing().split("\n", -1)));
    }

    /** One single-line document per line of the block. */
    private static List<DocTemplate> singles(String idPrefix, String family, String block) {
        return singles(idPrefix, family, null, block);
    }

    private static List<DocTemplate> singles(String idPrefix, String family, String locale, String block) {
        List<DocTemplate> out = new ArrayList<>();
        String[] lines = block.stripTrailing().split("\n");
        for (int i = 0; i < lines.length; i++) {
            out.add(new DocTemplate(idPrefix + "-" + (i + 1), family, locale, List.of(lines[i])));
        }
        return out;
    }

    /**
     * Sentences in the names' own language: without them every non-Latin word the model ever saw
     * would be part of a name, and German capitalised nouns would look like surnames. Chinese and
     * Japanese write no spaces, so SimpleTokenizer only separates a name there at punctuation.
     */
    private static List<DocTemplate> nativeText(String idPrefix, String locale, String block) {
        return singles(idPrefix + "-" + locale, "native", locale, block);
    }

    // =====================================================================================
    // TRAIN templates
    // =====================================================================================

    private static final List<DocTemplate> TRAIN = new ArrayList<>();

    static {
        // ---- prose: CRM notes, support replies, HR, medical, chat-like sentences
        TRAIN.addAll(singles("prose", "prose", """
            {R1} called about invoice {NUM} and asked for a callback on {WEEKDAY}.
            Please forward the signed contract to {TL1} before {DATE}.
            Spoke with {N1} today; {N1} will send the updated quote by {WEEKDAY}.
            Meeting with {P1} and {P2} at the {CITY} office moved to {TIME}.
            {P1} ({JOB}) approved the purchase order for {ORG}.
            According to {TL1}, the shipment left {CITY} on {DATE}.
            Thanks {N1}, I have added {P2} to the thread.
            Customer {P1} reports that {PRODUCT} crashes on startup.
            {R1} is out of office until {WEEKDAY}; contact {R2} for urgent issues.
            Handover from {N1} to {N2}: the {TECH} migration is blocked on {ORG}.
            Per my conversation with {R1}, we will refund order {NUM}.
            {IL1} and {IL2} reviewed the draft on {WEEKDAY}.
            Patient {LF1}, born {DATE}, was referred by {TL2}.
            Interview scheduled: {P1} with {P2} on {WEEKDAY} at {TIME}.
            We welcome {P1}, who joins {DEPT} as {JOB}.
            Escalated to {R1} because {R2} is travelling to {CITY}.
            I asked {N1} whether {PRODUCT} supports {TECH}.
            Note: {P1} prefers to be contacted by email at {E1}.
            Congratulations to {P1} and the {DEPT} team on the {ORG} launch!
            The account owner changed from {P1} to {P2}.
            Dear {TL1}, thank you for your order {NUM}.
            {N1} said the {CITY} warehouse is closed on {WEEKDAY}.
            Delivered to {P1}, {STREET}, {CITY}.
            Signed: {P1}, {JOB}, {ORG}
            Background check for {P1} completed with no findings.
            Reminder: {R1}'s birthday is on {MONTH} {DAYNUM}.
            Loan application {NUM} submitted by {P1} and co-signed by {P2}.
            {P1} left a 2-star review: "{PRODUCT} stopped syncing after the update."
            Shift swap: {N1} covers {N2}'s {WEEKDAY} shift in {CITY}.
            {P1} and {P2} from {ORG} will attend the {TOPIC} in {CITY}.
            Can you ask {R1} to reset the password for {U1}?
            {R1} mentioned that {ORG} is moving its data center to {SURNAMEPLACE}.
            Sorry {N1}, {R2} is not available on {WEEKDAY}; how about {MONTH} {DAYNUM}?
            The {ORG} contract was signed by {TP1} and witnessed by {P2}.
            Passenger {LF1}, seat 14C, flight to {CITY}.
            {P1} has been promoted to {JOB} effective {DATE}.
            Invoice recipient: {P1}, {ORG}, {CITY}, {COUNTRY}
            My manager {P1} asked me to share the {FILE} with {R2}.
            """));

        // ---- support tickets
        TRAIN.add(doc("ticket-basic", "ticket", """
            Ticket #{NUM}: {TOPIC}
            Reporter: {P1}
            Assignee: {P2}
            Status: {STATUS}   Priority: {PRIO}
            Description: {N1} cannot log in to {PRODUCT} since {WEEKDAY}.
            ?Comment ({DATE}) {P2}: asked {N1} to clear the cache and retry.
            ?Comment ({DATE}) {P1}: still failing on {OS}.
            """));
        TRAIN.add(doc("ticket-jira", "ticket", """
            [{PROJ}-{NUM}] {TOPIC}
            Type: Bug | Priority: {PRIO} | Component: {CLASS}
            Reporter: {P1} ({E1})
            Assigned to: {P2}
            ?Watchers: {P1}, {P3}
            {P2} changed status from Open to {STATUS}
            ?{P3} logged 2h of work
            """));
        TRAIN.add(doc("ticket-helpdesk", "ticket", """
            Requester: {P1} <{E1}>
            Organization: {ORG}
            Subject: {TOPIC}

            {HELLO} {N1},
            Thanks for reaching out. I have escalated this to {TL2} in {DEPT}.
            ?{N2} will get back to you by {WEEKDAY}.
            Kind regards,
            {N3}
            {ORG} Support
            """));
        TRAIN.add(doc("ticket-table", "ticket", """
            ID      Title                         Assignee            Status
            *{NUM}   {TOPIC}   {P1}   {STATUS}
            """));
        TRAIN.add(doc("ticket-nopeople", "ticket", """
            Ticket #{NUM}: {TOPIC}
            Component: {CLASS}  Version: {VERSION}
            Status: {STATUS}   Priority: {PRIO}
            Steps to reproduce: open {PATH} in {PRODUCT} on {OS}
            Expected: {CODE}   Actual: {CODE} {EXC}
            """));

        // ---- logs
        TRAIN.add(doc("log-app", "log", """
            {TS} {LEVEL} [auth] login succeeded user={U1} ip={IP}
            {TS} {LEVEL} [auth] password reset requested for {E1}
            {TS} {LEVEL} [tickets] ticket {NUM} assigned_to: {P2}
            {TS} {LEVEL} [billing] invoice {NUM} sent to customer "{P3}" ({E3})
            {TS} {LEVEL} {CLASS} - {EXC} while processing order {NUM}
            """));
        TRAIN.add(doc("log-audit", "log", """
            audit action=role.update actor={U1} target={U2} role=admin
            audit: {P1} ({E1}) granted {P2} access to {FILE}
            {TS} {LEVEL} request_id={HEX} method={HTTP} path={PATH} status={CODE} user={U1}
            """));
        TRAIN.add(doc("log-syslog", "log", """
            {MON} {DAYNUM} {TIME} {HOST} sshd[{NUM}]: Accepted publickey for {U1} from {IP} port {NUM} ssh2
            {MON} {DAYNUM} {TIME} {HOST} sudo: {U1} : TTY=pts/0 ; PWD=/home/{U1} ; USER=root ; COMMAND=/bin/systemctl restart nginx
            {MON} {DAYNUM} {TIME} {HOST} CRON[{NUM}]: ({U2}) CMD (/usr/local/bin/backup.sh)
            """));
        TRAIN.add(doc("log-crm", "log", """
            {TS} INFO  OrderService - Order {NUM} created for customer_name="{P1}" city="{CITY}"
            {TS} WARN  CrmSync - Contact '{P2}' has no email; owner={P3}
            ?{TS} INFO  Mailer - Sent welcome mail to {P1} <{E1}>
            {TS} DEBUG {PKG}.{CLASS} - {MSG}
            """));
        TRAIN.add(doc("log-stack", "log", """
            {TS} {LEVEL} [main] {PKG}.{CLASS} : {MSG}
            {TS} ERROR [worker-3] {PKG}.{CLASS} : {EXC}: {MSG}
                at {PKG}.{CLASS}.{METHOD}({CLASS}.java:{NUM})
                at {PKG}.{CLASS}.{METHOD}({CLASS}.java:{NUM})
            {TS} {LEVEL} Connection to {TECH} at {IP}:5432 refused
            {TS} INFO  Started {CLASS} in 2.3 seconds (JVM running for 3.1)
            """));
        TRAIN.add(doc("log-access", "log", """
            {IP} - {U1} [{DAYNUM}/{MON}/{YEAR}:{TIME}:07 +0000] "{HTTP} {PATH} HTTP/1.1" {CODE} 5123 "-" "Mozilla/5.0"
            {IP} - - [{DAYNUM}/{MON}/{YEAR}:{TIME}:09 +0000] "{HTTP} {PATH} HTTP/1.1" {CODE} 812 "-" "curl/8.5.0"
            """));

        // ---- CSV / TSV exports (header rows are hard negatives)
        TRAIN.add(doc("csv-contacts", "csv", """
            id,first_name,last_name,email,city,country
            *{NUM},{F1},{L1},{E1},{CITY},{COUNTRY}
            """));
        TRAIN.add(doc("csv-semicolon", "csv", """
            Name;Company;Phone;Owner
            *"{P1}";{ORG};{PHONE};{P2}
            """));
        TRAIN.add(doc("csv-tsv", "csv", """
            customer\tstatus\tamount\tagent
            *{P1}\t{STATUS}\t{AMOUNT}\t{F2}
            """));
        TRAIN.add(doc("csv-quoted", "csv", """
            "Last Name","First Name","Department","Manager"
            *"{L1}","{F1}","{DEPT}","{P2}"
            """));
        TRAIN.add(doc("csv-products", "csv", """
            sku,product,category,price,warehouse
            *{NUM},{PRODUCTNAME},{CAT},{AMOUNT},{CITY}
            """));
        TRAIN.add(doc("csv-orders", "csv", """
            order_id,customer,ship_to,created_at,total
            *{NUM},{P1},"{STREET}, {CITY}",{ISODATE},{AMOUNT}
            """));

        // ---- JSON (one-line and pretty-printed)
        TRAIN.addAll(singles("json-line", "json", """
            {"name": "{P1}", "city": "{CITY}"}
            {"id": {NUM}, "first_name": "{F1}", "last_name": "{L1}", "email": "{E1}", "active": true}
            [{"author": "{P1}", "comment": "Looks good to me", "created": "{ISODATE}"}, {"author": "{P2}", "comment": "Merged", "created": "{ISODATE}"}]
            {"city": "{CITY}", "country": "{COUNTRY}", "status": "ACTIVE", "plan": "{PRODUCT}"}
            {"level":"{LEVEL}","logger":"{PKG}.{CLASS}","message":"{MSG}","ts":"{ISODATE}"}
            {"contact":{"given_name":"{F1}","family_name":"{L1}","company":"{ORG}"}}
            {"user": "{U1}", "displayName": "{P1}", "roles": ["admin", "billing"]}
            {"event": "ticket.assigned", "ticket": {NUM}, "assignee": "{P1}", "queue": "{DEPT}"}
            {"customer": {"name": "{P1}", "address": "{STREET}", "country": "{COUNTRY}"}, "total": "{AMOUNT}"}
            {"product": "{PRODUCT}", "version": "{VERSION}", "region": "{CITY}", "owner_team": "{DEPT}"}
            """));
        TRAIN.add(doc("json-pretty-ticket", "json", """
            {
              "ticket": {NUM},
              "assignee": {
                "displayName": "{P1}",
                "emailAddress": "{E1}",
                "accountId": "{HEX}"
              },
              "reporter": "{P2}",
              "status": "{STATUS}",
              "labels": ["{SLUG}", "{DEPT}"]
            }
            """));
        TRAIN.add(doc("json-pretty-user", "json", """
            {
              "id": "{HEX}",
              "given_name": "{F1}",
              "family_name": "{L1}",
              "email": "{E1}",
              "manager": "{P2}",
              "office": "{CITY}",
              "timezone": "Europe/Paris"
            }
            """));
        TRAIN.add(doc("json-pretty-config", "json", """
            {
              "service": "{TECH}",
              "region": "{CITY}",
              "replicas": 3,
              "image": "registry.example.com/{SLUG}:{VERSION}",
              "alerts": {"channel": "#{CHANNEL}", "severity": "{LEVEL}"}
            }
            """));

        // ---- e-mail
        TRAIN.add(doc("email-thread", "email", """
            From: "{P1}" <{E1}>
            To: {P2} <{E2}>
            ?Cc: {P3} <{E3}>
            Subject: {TOPIC}
            Date: {RFCDATE}

            {HELLO} {N2},

            Following up on our call: {ORG} would like to move the go-live to {WEEKDAY}.
            Could you check with {N3} whether the {CITY} team is ready?

            Best regards,
            {P1}
            {JOB} | {ORG}
            {PHONE}
            """));
        TRAIN.add(doc("email-reply", "email", """
            Subject: Re: {TOPIC}
            Thanks {N1}, received. I will loop in {R3}.
            --
            {N2}

            On {RFCDATE}, {P1} <{E1}> wrote:
            > Dear {TL2},
            > please find attached the invoice for {MONTH}.
            > Regards, {N1}
            """));
        TRAIN.add(doc("email-formal", "email", """
            To: {E1}
            Subject: {TOPIC}
            Dear {TP1},
            We are writing to confirm your appointment with {TP2} on {WEEKDAY}, {MONTH} {DAYNUM} at {TIME}.
            Sincerely,
            {P3}
            {DEPT}, {ORG}
            """));
        TRAIN.add(doc("email-newsletter", "email", """
            From: {ORG} <newsletter@{DOMAIN}>
            Subject: {ORG} Product Update - {MONTH} {YEAR}
            New in {PRODUCT}: faster sync with {TECH}.
            Join our webinar on {WEEKDAY} in {CITY}, or watch the recording.
            Unsubscribe | Privacy Policy | Terms of Service
            """));
        TRAIN.add(doc("email-outlook", "email", """
            From: {P1}
            Sent: {WEEKDAY}, {MONTH} {DAYNUM}, {YEAR} {TIME}
            To: {P2}; {P3}
            Subject: RE: {TOPIC}

            {N2} - see below. {N3}, can you confirm the numbers for {COUNTRY}?
            Thanks,
            {N1}
            """));
        TRAIN.add(doc("email-autoreply", "email", """
            Subject: Automatic reply: {TOPIC}
            I am out of the office until {MONTH} {DAYNUM} with limited access to email.
            For urgent matters please contact {P1} ({E1}) or the {DEPT} hotline.
            """));

        // ---- chat transcripts
        TRAIN.add(doc("chat-irc", "chat", """
            [{TIME}] {N1}: can you check the build on {TECH}?
            [{TIME}] {N2}: on it, {N1}. {P3} broke it again
            [{TIME}] * {P3} joined #{CHANNEL}
            [{TIME}] {N3}: sorry! reverting {SHORTSHA}
            [{TIME}] {N1}: thanks!
            """));
        TRAIN.add(doc("chat-slack", "chat", """
            {P1}  {TIME}
            hey @{U2}, is the {CITY} demo still on for {WEEKDAY}?
            {P2}  {TIME}
            yes! {N3} will join from {COUNTRY}
            ?{P1}  {TIME}
            ?great, I will tell {R3}
            """));
        TRAIN.add(doc("chat-nick", "chat", """
            <{U1}> anyone seen {N2} today?
            <{U3}> {N2} is at the {ORG} offsite in {CITY}
            <{U1}> ok, I will ping {R2} on {WEEKDAY}
            """));
        TRAIN.add(doc("chat-support", "chat", """
            Chat started {DATE} {TIME}
            {N1}: hi, my order {NUM} never arrived
            Agent ({N2}): Hi {N1}! I am sorry to hear that. Can you confirm the delivery address?
            {N1}: {STREET}, {CITY}
            Agent ({N2}): Thanks. I have created ticket {NUM}; {TL3} from shipping will follow up.
            """));

        // ---- git
        TRAIN.add(doc("git-log", "git", """
            commit {SHA}
            Author: {P1} <{E1}>
            Date:   {GITDATE}

                {TOPICCOMMIT}

            ?    Reported-by: {P2} <{E2}>
                Signed-off-by: {P1} <{E1}>
            """));
        TRAIN.add(doc("git-oneline", "git", """
            *{SHORTSHA} {TOPICCOMMIT} ({P1}, {RELDATE})
            """));
        TRAIN.add(doc("git-merge", "git", """
            Merge pull request #{NUM} from {U1}/{SLUG}
            {TOPICCOMMIT}
            Co-authored-by: {P2} <{E2}>
            ?Reviewed-by: {P3}
            """));
        TRAIN.add(doc("git-blame", "git", """
            *{SHORTSHA} ({P1} {ISODATE} {NUM})     return {FIELD};
            """));

        // ---- calendar
        TRAIN.add(doc("cal-ics", "calendar", """
            BEGIN:VEVENT
            SUMMARY:1:1 {N1} / {N2}
            DTSTART:{ICSDATE}
            ORGANIZER;CN={P1}:mailto:{E1}
            ATTENDEE;CN={P2};ROLE=REQ-PARTICIPANT:mailto:{E2}
            ?ATTENDEE;CN={P3};ROLE=OPT-PARTICIPANT:mailto:{E3}
            LOCATION:{CITY} office, Room {NUM}
            END:VEVENT
            """));
        TRAIN.add(doc("cal-agenda", "calendar", """
            {WEEKDAY}, {MONTH} {DAYNUM}
            {TIME} - {TOPIC} ({P1}, {P2})
            {TIME} - Lunch with {N3} at {RESTAURANT}
            {TIME} - Flight to {CITY}
            ?{TIME} - Dentist
            """));
        TRAIN.add(doc("cal-invite", "calendar", """
            Invitation: {TOPIC} @ {WEEKDAY} {DATE} {TIME} ({E1})
            Organizer: {P1}
            Guests: {P2}, {P3}
            Where: {CITY}, {LANDMARK}
            """));

        // ---- directory listings, LDAP, org charts
        TRAIN.add(doc("dir-ldap", "directory", """
            dn: uid={U1},ou=people,dc=example,dc=com
            cn: {P1}
            givenName: {F1}
            sn: {L1}
            mail: {E1}
            title: {JOB}
            manager: uid={U2},ou=people,dc=example,dc=com
            """));
        TRAIN.add(doc("dir-ls", "directory", """
            total {NUM}
            drwxr-xr-x  5 {U1} staff   160 {MON} {DAYNUM} {TIME} src
            -rw-r--r--  1 {U1} staff  2048 {MON} {DAYNUM} {TIME} {FILE}
            -rw-r--r--  1 {U1} staff   512 {MON} {DAYNUM} {TIME} {FILE}
            -rwxr-xr-x  1 root  wheel  8192 {MON} {DAYNUM} {YEAR} {FILE}
            """));
        TRAIN.add(doc("dir-markdown", "directory", """
            | Name | Role | Location |
            |------|------|----------|
            *| {P1} | {JOB} | {CITY} |
            """));
        TRAIN.add(doc("dir-orgchart", "directory", """
            {P1} - {JOB}
              +-- {P2} - {JOB}
              |     +-- {P3} - {JOB}
              +-- {DEPT} (vacant)
            """));
        TRAIN.add(doc("dir-phonelist", "directory", """
            Internal phone list - {DEPT}
            *{LF1} ........ ext. {NUM}
            """));
        TRAIN.add(doc("dir-tree", "directory", """
            ./{SLUG}/
            |-- {FILE}
            |-- src/main/java/{CLASS}.java
            `-- docs/{FILE}
            """));

        // ---- source code
        TRAIN.add(doc("code-java", "code", """
            /**
             * Customer lookup used by the {DEPT} dashboard.
             * @author {P1}
             */
            public class {CLASS} {
                private static final String DEFAULT_OWNER = "{P2}";
                private final Map<String, String> {FIELD} = new HashMap<>();
            """));
        TRAIN.add(doc("code-misc", "code", """
            // TODO({U1}): remove after the {MONTH} release
            # Maintainer: {P1} <{E1}>
            customer.setName("{P2}");
            assertEquals("{F3}", user.getFirstName());
            """));
        TRAIN.add(doc("code-nopeople", "code", """
            import java.util.List;
            def get_user_name(self):
                return self.first_name + " " + self.last_name
            SELECT first_name, last_name, email FROM customers WHERE city = '{CITY}';
            if (user.getLastName() == null) throw new {EXC}("lastName");
            const {FIELD} = await fetch("{PATH}");
            """));
        TRAIN.add(doc("code-python", "code", """
            users = [
                {"name": "{P1}", "role": "admin"},
                {"name": "{P2}", "role": "viewer"},
            ]
            print(f"Hello {F3}!")
            """));

        // ---- config / YAML
        TRAIN.add(doc("yaml-owners", "config", """
            owner: {P1}
            maintainers:
              - name: {P2}
                email: {E2}
            service: {TECH}
            region: {CITY}
            """));
        TRAIN.add(doc("yaml-k8s", "config", """
            apiVersion: apps/v1
            kind: Deployment
            metadata:
              name: {SLUG}
              labels:
                team: {DEPT}
            spec:
              replicas: 3
            """));

        // ---- CRM / forms
        TRAIN.add(doc("crm-contact", "crm", """
            Contact: {P1}
            Account: {ORG}
            Title: {JOB}
            Phone: {PHONE}
            Mailing Address: {STREET}, {CITY}
            Owner: {P2}
            Last activity: call with {N1} on {DATE}
            """));
        TRAIN.add(doc("crm-opportunity", "crm", """
            Opportunity: {ORG} - {PRODUCT} renewal
            Stage: {STAGE}
            Amount: {AMOUNT}
            Decision maker: {TP1}
            Champion: {R2}
            Next step: {N3} to send proposal by {WEEKDAY}
            """));
        TRAIN.add(doc("crm-form", "crm", """
            Full name: {P1}
            Date of birth: {DATE}
            Nationality: {NATIONALITY}
            Emergency contact: {P2} ({RELATION})
            Address: {STREET}, {CITY}, {COUNTRY}
            """));
        TRAIN.add(doc("crm-notes", "crm", """
            ## Meeting notes - {ORG}, {DATE}
            Attendees: {P1}, {P2}, {IL3}
            - {N1} walked through the {TOPIC}
            - {ORG} wants {PRODUCT} in {COUNTRY} by {MONTH}
            Action items: {N2} sends pricing; {R3} books the {CITY} visit
            """));

        // ---- label/value pairs in many syntaxes: a name after a person label, anything else after others
        TRAIN.addAll(singles("kv", "kv", """
            {PLABEL}: {P1}
            {PLABEL}: {R1}
            {PLABEL} = "{P1}"
            {PLABEL}={P1}
            "{PKEY}": "{P1}",
            <{PKEY}>{P1}</{PKEY}>
            {PLABEL} - {P1}
            {PLABEL} | {P1} | {PLABEL} | {P2}
            [{PLABEL}] {P1}
            {PLABEL}: {P1} ({E1})
            {PLABEL}: {TP1}
            {PLABEL}: {LF1}
            {PLABEL}	{P1}
            {PLABEL} {P1} on {DATE}
            {PLABEL}: {P1}, {JOB}
            - {P1} ({JOB})
            * {P1} <{E1}>
            {P1}, {P2}, {P3}
            {PKEY}: '{P1}'
            ({P1}) {PLABEL}
            {NLABEL}: {CITY}
            {NLABEL}: {SURNAMEPLACE}
            {NLABEL}: {ORG}
            {NLABEL}: {PRODUCT}
            {NLABEL}: {DEPT}
            {NLABEL} = "{COUNTRY}"
            "{NKEY}": "{ORG}",
            "{NKEY}": "{SURNAMEPLACE}",
            {NLABEL} | {STATUS} | {NLABEL} | {CITY}
            <{NKEY}>{PRODUCT}</{NKEY}>
            {NLABEL}	{HEADER}
            {NLABEL}: {LANDMARK}, {CITY}
            """));

        // ---- text in the names' own languages (lines without a placeholder are hard negatives)
        TRAIN.addAll(nativeText("native", "fr", """
            Bonjour {N1}, la réunion avec {P2} est reportée à jeudi prochain.
            Merci de transmettre la facture à {TL1} avant la fin du mois.
            Le dossier de {P1} a été transmis au Service Client de Lyon.
            Compte rendu : {P1} présentera le budget ; {N2} s'occupe de la Logistique.
            Cordialement, {P1}, Responsable des Achats
            Le Comité de Direction se réunira à Bordeaux le premier lundi de juin.
            """));
        TRAIN.addAll(nativeText("native", "de", """
            Sehr geehrte Frau {L1}, vielen Dank für Ihre Bestellung vom Montag.
            Die Rechnung für Herrn {L1} wurde an die Buchhaltung in Hamburg geschickt.
            Besprechung mit {P1} und {P2} am Dienstag im Konferenzraum Berlin.
            Mit freundlichen Grüßen, {P1}, Kundenservice
            Ansprechpartner: {P1}, Vertrieb, Telefon {PHONE}
            Der Kunde {P1} meldet, dass die Lieferung noch nicht angekommen ist.
            Bitte prüfen Sie den Vertrag und die Anlage bis Freitag.
            Die Geschäftsführung hat das Budget für das neue Projekt genehmigt.
            Wichtiger Hinweis: Die Zahlung ist innerhalb von vierzehn Tagen fällig.
            """));
        TRAIN.addAll(nativeText("native", "es", """
            Hola {N1}, la reunión con {P2} se ha movido al miércoles.
            Estimada Sra. {L1}: le confirmamos el envío de su pedido {NUM}.
            Responsable del proyecto: {P1} (Departamento de Ventas)
            Saludos cordiales, {P1}
            La oficina de Madrid permanecerá cerrada el lunes por la Fiesta Nacional.
            """));
        TRAIN.addAll(nativeText("native", "es-MX", """
            El cliente {P1} solicita la factura de marzo.
            Atentamente, {P1}, Gerente de Compras
            """));
        TRAIN.addAll(nativeText("native", "it", """
            Gentile {TP1}, la informiamo che l'ordine {NUM} è stato spedito.
            Riunione con {P1} giovedì alle 10 presso la sede di Milano.
            Cordiali saluti, {P1}, Ufficio Acquisti
            Il Servizio Clienti ha chiuso la pratica di {P1}.
            Il Consiglio di Amministrazione ha approvato il Bilancio.
            """));
        TRAIN.addAll(nativeText("native", "pt-BR", """
            Olá {N1}, a reunião com {P2} foi adiada para sexta-feira.
            Prezado Sr. {L1}, segue em anexo a Nota Fiscal do pedido {NUM}.
            Atenciosamente, {P1}, Gerente Comercial
            A Diretoria aprovou o orçamento para o projeto em São Paulo.
            """));
        TRAIN.addAll(nativeText("native", "nl", """
            Beste {N1}, de vergadering met {P2} is verplaatst naar donderdag.
            Met vriendelijke groet, {P1}, Klantenservice
            Geachte heer {L1}, hierbij ontvangt u de factuur van maart.
            """));
        TRAIN.addAll(nativeText("native", "pl", """
            Dzień dobry {N1}, spotkanie zostało przeniesione na czwartek.
            Z poważaniem, {P1}, Dział Sprzedaży
            Osoba kontaktowa: {P1}, tel. {PHONE}
            """));
        TRAIN.addAll(nativeText("native", "tr", """
            Merhaba {N1}, {P2} ile toplantı perşembeye ertelendi.
            Saygılarımla, {P1}, Satış Müdürü
            Sayın {P1}, siparişiniz kargoya verilmiştir.
            """));
        TRAIN.addAll(nativeText("native", "sv", """
            Hej {N1}, mötet med {P2} är flyttat till torsdag.
            Med vänliga hälsningar, {P1}
            """));
        TRAIN.addAll(nativeText("native", "ru", """
            Здравствуйте, {N1}! Встреча перенесена на четверг.
            Ответственный: {P1}. Срок: {DATE}. Статус: В работе.
            С уважением, {P1}, отдел продаж
            Автор: {P1}
            Клиент {P1} сообщил, что заказ {NUM} не доставлен.
            Совещание состоится в Москве в понедельник в 10:00.
            Отчёт за третий квартал отправлен в Бухгалтерию.
            """));
        TRAIN.addAll(nativeText("native", "bg", """
            Здравейте, {N1}, срещата е преместена за четвъртък.
            С уважение, {P1}
            """));
        TRAIN.addAll(nativeText("native", "el-GR", """
            Καλημέρα {N1}, η συνάντηση μεταφέρθηκε για την Πέμπτη.
            Υπεύθυνος έργου: {P1}, Τμήμα Πωλήσεων
            Με εκτίμηση, {P1}
            Το γραφείο της Αθήνας θα είναι κλειστό τη Δευτέρα.
            Ο πελάτης {P1} ζήτησε το τιμολόγιο του Μαρτίου.
            """));
        TRAIN.addAll(nativeText("native", "ar", """
            مرحبا {N1}، تم تأكيد طلبك رقم {NUM}.
            مع أطيب التحيات، {P1}
            المسؤول: {P1} - قسم المبيعات
            سيكون مكتب دبي مغلقا يوم الجمعة.
            """));
        TRAIN.addAll(nativeText("native", "fa", """
            سلام {N1}، جلسه به پنجشنبه منتقل شد.
            با احترام، {P1}
            """));
        TRAIN.addAll(nativeText("native", "he", """
            שלום {N1}, הפגישה נדחתה ליום חמישי.
            בברכה, {P1}
            איש קשר: {P1}
            """));
        TRAIN.addAll(nativeText("native", "ja", """
            担当者：{P1}（営業部）
            お問い合わせ：{P1}（{E1}）
            差出人：{P1}
            会議は木曜日に延期されました。
            {P1} 様
            """));
        TRAIN.addAll(nativeText("native", "zh-CN", """
            联系人：{P1}，电话：{PHONE}
            负责人：{P1}（销售部）
            发件人：{P1} <{E1}>
            会议改到星期四下午三点。
            """));
        TRAIN.addAll(nativeText("native", "ko", """
            담당자: {P1} (영업팀)
            보낸 사람: {P1} <{E1}>
            회의가 목요일로 변경되었습니다.
            안녕하세요 {N1} 님, 주문이 발송되었습니다.
            """));
        TRAIN.addAll(nativeText("native", "vi", """
            Xin chào {N1}, cuộc họp đã được dời sang thứ Năm.
            Người phụ trách: {P1}, Phòng Kinh doanh
            """));
        TRAIN.addAll(nativeText("native", "id", """
            Halo {N1}, rapat dengan {P2} dipindahkan ke hari Kamis.
            Hormat kami, {P1}, Bagian Keuangan
            """));
        TRAIN.addAll(nativeText("native", "th", """
            ผู้ติดต่อ: {P1}
            เรียน คุณ {N1}
            """));
        for (String locale : List.of("ru", "bg", "el-GR", "ar", "fa", "he", "ja", "zh-CN", "ko", "vi", "tr", "de", "fr", "th")) {
            TRAIN.addAll(nativeText("native-words", locale, """
                {NATIVE}: {NATIVE}
                {NATIVE} - {NATIVE}, {NUM}
                "{NATIVE}", "{NATIVE}", {AMOUNT}
                {NATIVE}: {P1}
                {P1} - {NATIVE}
                """));
        }
        // everyday chat and business sentences, many starting with a capitalised word that is no name
        TRAIN.addAll(nativeText("native-chat", "es", """
            Perfecto, {N1}, lo vemos mañana a primera hora.
            Vale, gracias. Te mando el presupuesto esta tarde.
            Buenos días a todos, ¿alguien sabe si llegó el pedido?
            Claro que sí, {N1}. Ya está todo listo para la entrega.
            Oye {N1}, ¿puedes revisar la factura de Telefónica?
            Os recuerdo que el viernes cerramos la oficina de Valencia.
            Me encargo yo. Luego os cuento cómo ha ido la reunión.
            """));
        TRAIN.addAll(nativeText("native-chat", "fr", """
            Merci {N1}, je regarde ça tout de suite.
            Bien reçu, je transmets au Service Juridique.
            Salut tout le monde, la réunion est décalée à 15h.
            Pas de souci, {N1} s'en occupe demain matin.
            Veuillez trouver ci-joint le devis signé.
            Rappel : la Direction Financière clôture les comptes vendredi.
            """));
        TRAIN.addAll(nativeText("native-chat", "de", """
            Guten Morgen zusammen, die Besprechung fällt heute aus.
            Danke dir, {N1}! Ich schaue mir das Angebot gleich an.
            Kurze Frage: Wer hat die Zugangsdaten für das Portal?
            Alles klar, dann machen wir das so.
            Liebe Grüße aus München, {N1}
            Bitte beachten Sie die geänderten Öffnungszeiten unserer Filiale.
            """));
        TRAIN.addAll(nativeText("native-chat", "pt-BR", """
            Bom dia, pessoal! A reunião foi remarcada para amanhã.
            Obrigado, {N1}. Já enviei o comprovante.
            Beleza, vou verificar com o Financeiro e te aviso.
            Segue o link da planilha atualizada.
            Pode deixar, {N1} resolve isso hoje.
            """));
        TRAIN.addAll(nativeText("native-chat", "it", """
            Buongiorno a tutti, la riunione è spostata alle 11.
            Grazie {N1}, ci penso io.
            Perfetto, allora confermo l'ordine per lunedì.
            Ragazzi, qualcuno ha la password del Wi-Fi?
            """));
        TRAIN.addAll(nativeText("native-chat", "ru", """
            Коллеги, доброе утро! Созвон переносится на 15:00.
            Спасибо, {N1}, посмотрю сегодня.
            Да, всё верно. Договор подписан.
            Напоминаю, что в пятницу офис закрыт.
            Привет, {N1}! Скинь, пожалуйста, счёт.
            Новый адрес склада пришлю позже.
            """));
        TRAIN.addAll(nativeText("native-chat", "pl", """
            Dzień dobry, przesyłam fakturę w załączniku.
            Dzięki {N1}, sprawdzę to jutro.
            Proszę o potwierdzenie odbioru zamówienia.
            Szanowni Państwo, biuro będzie nieczynne w piątek.
            """));
        TRAIN.addAll(nativeText("native-chat", "nl", """
            Goedemorgen allemaal, het overleg is verplaatst.
            Bedankt {N1}, ik kijk er morgen naar.
            Graag ontvang ik de offerte voor vrijdag.
            """));
        TRAIN.addAll(nativeText("native-chat", "tr", """
            Günaydın, toplantı saat 14:00'e alındı.
            Teşekkürler {N1}, hemen bakıyorum.
            Sözleşme imzalandı, faturayı yarın gönderiyoruz.
            """));
        TRAIN.addAll(nativeText("native-chat", "ar", """
            صباح الخير، تم تأجيل الاجتماع إلى الغد.
            شكرا {N1}، سأراجع الفاتورة اليوم.
            يرجى إرسال نسخة من العقد قبل نهاية الأسبوع.
            ملاحظة داخلية: العميل يطلب استرداد المبلغ.
            """));
        TRAIN.addAll(nativeText("native-chat", "zh-CN", """
            大家好，会议改到明天上午十点。
            谢谢，{P1}，我今天处理。
            请在周五前提交报销单。
            """));
        TRAIN.addAll(nativeText("native-chat", "ja", """
            お疲れ様です。会議は明日に変更になりました。
            ありがとうございます、{P1} さん。
            見積書を添付いたします。
            """));
        TRAIN.addAll(nativeText("native-chat", "ko", """
            안녕하세요, 회의가 내일로 변경되었습니다.
            감사합니다 {P1} 님.
            견적서를 첨부합니다.
            """));
        TRAIN.addAll(nativeText("native-chat", "el-GR", """
            Καλημέρα σε όλους, η σύσκεψη αναβάλλεται για αύριο.
            Ευχαριστώ {N1}, θα το κοιτάξω σήμερα.
            Σας επισυνάπτω την προσφορά.
            """));
        TRAIN.addAll(nativeText("native-chat", "he", """
            בוקר טוב לכולם, הפגישה נדחתה למחר.
            תודה {N1}, אבדוק את זה היום.
            """));
        TRAIN.addAll(nativeText("native", "hy", """
            Հարգանքով՝ {P1}
            """));
        TRAIN.addAll(nativeText("native", "ka", """
            პატივისცემით, {P1}
            """));

        // ---- hard negatives: no person anywhere
        TRAIN.addAll(singles("neg", "negative", """
            What is the capital of {COUNTRY}?
            {ORG} acquired {ORG} for {AMOUNT}.
            Deploy {PRODUCT} to the {CITY} region on {WEEKDAY}.
            See {FILE} and {FILE} for details.
            The {TECH} cluster in {CITY} failed over to {CITY} at {TIME}.
            Shipping to {SURNAMEPLACE} takes 3 business days.
            {WEEKDAY}, {MONTH} {DAYNUM}: {TOPIC}
            {LEVEL}: {EXC} in {CLASS}.{METHOD}()
            Flights from {SURNAMEPLACE} to {CITY} are delayed due to weather.
            Our {DEPT} team in {SURNAMEPLACE}, {STATE} is hiring.
            Release notes {VERSION}: {PRODUCT} now supports {TECH} and {TECH}.
            Total: {AMOUNT} | Status: {STATUS} | Region: {COUNTRY}
            Weather in {CITY} on {WEEKDAY}: sunny, 24 C
            The {ORG} office in {CITY} is closed for {HOLIDAY}.
            Visit the {LANDMARK} when you are in {CITY}.
            Headquarters: {STREET}, {CITY}, {COUNTRY}
            {ORG} Reports Record Quarterly Revenue In {COUNTRY}
            {TECH} {VERSION} Released With Improved {PRODUCT} Support
            ## {HEADER}
            - [ ] Update {FILE}
            - [x] Migrate {TECH} to {VERSION}
            {NATIONALITY} regulators fined {ORG} on {WEEKDAY}.
            Next Steps: review the {TOPIC} with {DEPT}.
            Attendees: {DEPT}, {DEPT} and {ORG}
            The {JOB} will contact you within two business days.
            This library is written in {LANG} and runs on {OS}.
            Ask {ASSISTANT} to summarize {FILE}.
            {HTTP} {PATH} HTTP/1.1
            Authorization: Bearer {HEX}
            Content-Type: application/json; charset=utf-8
            Accept-Language: en-US,en;q=0.9
            User-Agent: Mozilla/5.0 ({OS})
            {CODE} {LEVEL} upstream {DOMAIN} returned {CODE}
            Welcome to {CITY}! Check-in opens {WEEKDAY} at {TIME}.
            Payment of {AMOUNT} received from {ORG} on {DATE}.
            {COUNTRY} vs {COUNTRY}: {NUM}-{NUM} at {SURNAMEPLACE} Stadium
            The {HEADER} section of {FILE} is out of date.
            Sales in {STATE} grew {NUM}% in {MONTH}.
            Route: {CITY} - {SURNAMEPLACE} - {CITY}
            Created by {ORG} in {YEAR}. All rights reserved.
            Build #{NUM} {STATUS} on {HOST} ({TECH} {VERSION})
            Happy {HOLIDAY} from everyone at {ORG}!
            PRIORITY: {PRIO} | OWNER TEAM: {DEPT} | REGION: {COUNTRY}
            Office hours: {WEEKDAY} to {WEEKDAY}, 9:00 - 17:00 ({CITY} time)
            Quote valid until {MONTH} {DAYNUM}, {YEAR}.
            """));
        TRAIN.add(doc("neg-http", "negative", """
            HTTP/1.1 {CODE}
            Date: {RFCDATE}
            Server: {TECH}/{VERSION}
            Content-Type: application/json
            X-Request-Id: {HEX}
            """));
    }

    /*
     * Issue 14: where held-out public text puts names and the corpus did not: lists and enumerations, dialogue
     * turns, names inside titles and quotations, a single given name after a cue, a family name alone after a full
     * mention; with hard negatives of the same shapes (lists of places, products and organisations, labels,
     * greetings to no one) so that the shape alone is not evidence.
     */
    static {
        TRAIN.addAll(singles("list", "list", """
            The founders: {L1}, {L2} and {L3} started {ORG} in {YEAR}.
            Founded by {P1}, {P2} and {P3}, {ORG} now has offices in {CITY}.
            Speakers: {P1}, {P2}, {P3}, {P4} and {P5}.
            Attendees: {P1}; {P2}; {P3}
            Present: {N1}, {N2}, {N3}, {N4}
            The committee ({L1}, {L2}, {L3}) approved the {TOPIC} budget.
            Thanks to {F1}, {F2}, {F3} and {F4} for the reviews.
            Authors: {IL1}, {IL2}, {IL3}
            {L1}, {L2}, and {L3} ({YEAR}) showed that the method scales.
            Team: {F1} (lead), {F2}, {F3} and {F4}.
            The winners were {P1} of {CITY}, {P2} of {CITY}, and {P3}.
            Line-up: {P1} / {P2} / {P3} / {P4}
            Panel with {P1}, {P2}, {P3} and moderator {P4}
            {L1} & {L2} will co-chair; {L3} takes notes.
            Members of the band: {P1} (vocals), {P2} (guitar), {P3} (drums).
            Invited: {F1}, {F2}, {F3}, {F4}, {F5} and {F6}.
            The partners, {L1}, {L2} and {L3}, signed the {ORG} deal.
            Candidates shortlisted: {P1}, {P2}, {P3}.
            With {P1}, {P2} and {P3} on board, the {DEPT} team is complete.
            """));
        TRAIN.add(doc("list-bullets", "list", """
            Reviewers:
            - {P1}
            - {P2}
            ?- {P3}
            • {P4}
            """));
        TRAIN.add(doc("list-numbered", "list", """
            Shortlist for {JOB}:
            1. {P1} ({CITY})
            2. {P2} ({CITY})
            3. {P3}
            ?4. {P4}
            """));
        TRAIN.addAll(nativeText("list", "fr", "Présents : {P1}, {P2} et {P3}."));
        TRAIN.addAll(nativeText("list", "de", "Anwesend: {P1}, {P2} und {P3}"));
        TRAIN.addAll(nativeText("list", "es", "Asistentes: {P1}, {P2} y {P3}."));
        TRAIN.addAll(nativeText("list", "it", "Partecipanti: {P1}, {P2} e {P3}"));
        TRAIN.addAll(nativeText("list", "pl", "Obecni: {P1}, {P2} i {P3}."));
        TRAIN.addAll(nativeText("list", "hu", "Résztvevők: {P1}, {P2} és {P3}"));
        TRAIN.addAll(nativeText("list", "fi-FI", "Osallistujat: {P1}, {P2} ja {P3}"));
        TRAIN.addAll(nativeText("list", "tr", "Katılımcılar: {P1}, {P2} ve {P3}"));
        TRAIN.addAll(nativeText("list", "vi", "Thành viên: {P1}, {P2} và {P3}"));
        TRAIN.addAll(nativeText("list", "cs", "Účastníci: {P1}, {P2} a {P3}"));
        TRAIN.add(doc("dialogue-plain", "dialogue", """
            {F1}: hey, did the deploy go out?
            {F2}: yes, about ten minutes ago
            ?Bot: deploy {NUM} finished on {HOST}
            {F1}: great, thanks!
            ?{F3}: I still see the old version on {HOST}
            {F2}: try clearing your cache
            """));
        // roles speak too: a capitalised word before a colon is a name only when it is one
        TRAIN.add(doc("dialogue-roles", "dialogue", """
            [{TIME}] Visitor: my parcel never arrived
            [{TIME}] Assistant: I'm sorry to hear that. Can you share the order number?
            [{TIME}] Visitor: {NUM}
            ?[{TIME}] System: {F1} joined the chat
            [{TIME}] Agent: thanks, I found it
            """));
        TRAIN.add(doc("neg-keyvalue", "negative", """
            SRC={IP} DST={IP} LEN={NUM} TOS=0x00 PROTO=TCP
            Secret: {HEX}
            Track A: {TOPIC}
            Drive C: {NUM} GB free
            TABLES: {NUM}  SA: {STATUS}
            Refund: {AMOUNT}
            """));
        TRAIN.add(doc("dialogue-stamped", "dialogue", """
            [{TIME}] {P1}: the report for {ORG} is ready
            [{TIME}] {F2}: thanks, looking at it now
            [{TIME}] {P1}: ping me if anything is off
            ?[{TIME}] {P3}: joining late, sorry
            """));
        TRAIN.add(doc("dialogue-export", "dialogue", """
            {DATE}, {TIME} - {F1}: Are we still on for {WEEKDAY}?
            {DATE}, {TIME} - {F2}: Yes! See you at {RESTAURANT}
            {DATE}, {TIME} - {F1}: perfect
            """));
        TRAIN.add(doc("dialogue-interview", "dialogue", """
            INTERVIEWER: Thanks for joining us.
            {P1}: Happy to be here.
            INTERVIEWER: Tell us about {ORG}.
            {L1}: We started in {CITY} in {YEAR}.
            """));
        TRAIN.addAll(singles("cue", "cue", """
            My name is {F1} and I am calling about order {NUM}.
            Hi, I'm {F1} from {ORG}.
            Hello, this is {F1} from the {DEPT} team.
            my name is {F1}, I bought a {PRODUCT} last {WEEKDAY}
            Please call me {F1}.
            I am {F1}, the new {JOB}.
            Her name is {F1} and she starts on {WEEKDAY}.
            My son {F1} and my daughter {F2} both use the account.
            Ask for {F1} at the front desk.
            Hi {F1}, thanks for reaching out!
            Hey {F1}! Long time no see.
            Thanks {F1}, that fixed it.
            Cheers, {F1}
            Signed, {P1}
            Written by {P1}. Edited by {P2}.
            — {F1}
            Regards, {N1}
            Morning {F1}, the {PRODUCT} license expired.
            Good luck, {F1}!
            Ping {F1} about the {TOPIC} slides.
            """));
        TRAIN.add(doc("cue-signoff", "cue", """
            Thanks for the quick reply.
            Best,
            {F1}
            """));
        TRAIN.addAll(nativeText("cue", "fr", "Bonjour, je m'appelle {F1} et j'habite à {CITY}."));
        TRAIN.addAll(nativeText("cue", "de", "Hallo, ich heiße {F1} und arbeite bei {ORG}."));
        TRAIN.addAll(nativeText("cue", "es", "Hola, me llamo {F1}."));
        TRAIN.addAll(nativeText("cue", "it", "Ciao, mi chiamo {F1}."));
        TRAIN.addAll(nativeText("cue", "pl", "Dzień dobry, nazywam się {P1}."));
        TRAIN.addAll(nativeText("cue", "hu", "Jó napot, a nevem {P1}."));
        TRAIN.addAll(nativeText("cue", "fi-FI", "Hei, nimeni on {F1}."));
        TRAIN.addAll(nativeText("cue", "tr", "Merhaba, benim adım {F1}."));
        TRAIN.addAll(nativeText("cue", "vi", "Xin chào, tên tôi là {P1}."));
        TRAIN.addAll(nativeText("cue", "cs", "Dobrý den, jmenuji se {P1}."));
        TRAIN.addAll(nativeText("cue", "nl", "Hallo, mijn naam is {P1}."));
        TRAIN.addAll(nativeText("cue", "pt-BR", "Oi, meu nome é {F1}."));
        TRAIN.addAll(nativeText("cue", "is", "Ég heiti {P1}."));
        TRAIN.addAll(nativeText("cue", "mi", "Kia ora, ko {P1} tōku ingoa."));
        TRAIN.addAll(singles("title", "title", """
            Her favourite song is "Hey {F1}" by {P2}.
            They played "Ballad of {P1}" and "{F2}'s Song" at the wedding.
            The book "Letters to {F1}" was written by {P2}.
            I just watched "{P1}: A Life", the documentary about {L1}'s childhood.
            In "Waiting for {F1}", {P2} plays the lead.
            Now playing: "Dear {F1}" - {P2}
            "{P1}" is the third track on the album by {P2}.
            We read "The Diary of {P1}" in school.
            "We will not ship until it is ready," said {P1}.
            "Thank you," {F1} replied.
            {L1} said: "The numbers are final."
            Quote of the day: "Simplicity is prerequisite for reliability." — {P1}
            As {P1} put it, "less is more".
            "Ask {F1}," she said, "{F1} knows the {CITY} office."
            """));
        TRAIN.add(doc("surname-after", "surname", """
            {P1} joined {ORG} in {YEAR}.
            {L1} leads the {DEPT} team and reports to {P2}.
            Later {L1} said the {TOPIC} budget was fine; {L2} agreed.
            """));
        TRAIN.addAll(singles("surname", "surname", """
            {P1} opened the meeting; later {L1} presented the {TOPIC} results.
            {TP1} examined the patient. {L1} recommended rest.
            Interview with {P1}. {L1}, who grew up in {CITY}, studied {TOPIC}.
            {P1} and {P2} disagreed: {L1} wanted to wait, {L2} did not.
            """));
        TRAIN.addAll(singles("neg-list", "negative", """
            Supported databases: {PRODUCT}, {PRODUCT} and {PRODUCT}.
            Offices: {CITY}, {CITY}, {CITY} and {CITY}.
            Partners: {ORG}, {ORG} and {ORG}.
            Available in {COUNTRY}, {COUNTRY} and {COUNTRY}.
            Closed on {WEEKDAY}s and on {HOLIDAY}.
            Languages: {LANG}, {LANG} and {LANG}.
            Q3 agenda: {TOPIC}, {TOPIC} and {TOPIC}.
            Modules: {CLASS}, {CLASS}, {CLASS}
            Dear Customer, your order {NUM} has shipped.
            Hi team, the {PRODUCT} build is green.
            Hello World from {LANG}!
            Playlist: "{MONTH} Rain", "Summer in {CITY}", "{CITY} Nights"
            Watch "{PRODUCT}: The Complete Guide" on {WEEKDAY}.
            "{PRODUCT} is fast," the {ORG} blog says.
            Owner: {DEPT}
            Location: {CITY}, {COUNTRY}
            Thanks, {DEPT} team
            Regards, {ORG} Support
            Sponsors: {ORG} / {ORG} / {ORG}
            From {MONTH} to {MONTH}: {CITY}, {CITY} and {LANDMARK}.
            """));
        TRAIN.add(doc("neg-fields", "negative", """
            Status: {STATUS}
            Priority: {PRIO}
            Component: {PRODUCT}
            Region: {COUNTRY}
            """));
        TRAIN.add(doc("neg-signoff", "negative", """
            Your order {NUM} is on its way.
            Kind regards,
            The {ORG} Team
            """));
    }

    // =====================================================================================
    // HELDOUT templates: different wording and several formats training never shows
    // =====================================================================================

    private static final List<DocTemplate> HELDOUT = new ArrayList<>();

    static {
        HELDOUT.addAll(singles("h-prose", "prose", """
            Our rep {P1} visited {ORG} in {CITY} last {WEEKDAY}.
            Could {R1} confirm the delivery address for {TL2}?
            Minutes taken by {P1}; absent: {P2}.
            {F1} and I will present the {TOPIC} to {ORG} on {DATE}.
            The refund was approved by {TL1} after {F2} escalated it.
            Per {P1}'s request, the {PRODUCT} licence moved to {P2}.
            Guest list: {P1}, {P2} and {P3}.
            {R1} will replace {R2} as {JOB} from {MONTH}.
            Tenant {LF1} reported a leak at {STREET}.
            Witness statement given by {P1} in {SURNAMEPLACE} on {DATE}.
            """));
        HELDOUT.add(doc("h-ticket-case", "ticket", """
            Case {NUM} | Opened by {P1} | Owner: {P2} | {STATUS}
            Internal note from {F2}: customer {L1} called twice about {TOPIC}.
            Resolution: {F2} re-sent the invoice to {E1}.
            """));
        HELDOUT.add(doc("h-log-logfmt", "log", """
            ts={ISODATE} level={LEVEL} msg="ticket reassigned" from="{P1}" to="{P2}" queue={DEPT}
            ts={ISODATE} level={LEVEL} msg="login" user={U1} ip={IP}
            [{LEVEL}] {TS} user "{P3}" <{E3}> exported {NUM} rows from {FILE}
            """));
        HELDOUT.add(doc("h-csv-pipe", "csv", """
            employee_id|full_name|title|location
            *{NUM}|{P1}|{JOB}|{CITY}
            """));
        HELDOUT.add(doc("h-csv-crm", "csv", """
            Contact,Account,Stage
            *"{LF1}",{ORG},{STAGE}
            """));
        HELDOUT.addAll(singles("h-json", "json", """
            {"owner":"{P1}","members":["{P2}","{P3}"],"project":"{PROJ}"}
            {"patient": {"family": "{L1}", "given": ["{F1}"]}, "practitioner": "{TP2}"}
            {"warehouse": "{CITY}", "carrier": "{ORG}", "eta": "{ISODATE}"}
            """));
        HELDOUT.add(doc("h-email", "email", """
            Sender: {P1} <{E1}>
            Recipient: {E2}
            {HELLO} {TL2}, your appointment with {TP3} is confirmed for {WEEKDAY} {TIME}.
            Warm wishes,
            {F1} from {ORG}
            """));
        HELDOUT.add(doc("h-chat-whatsapp", "chat", """
            {DATE}, {TIME} - {P1}: see you at {CITY} central station
            {DATE}, {TIME} - {F2}: ok, {F1}. bringing {R3} too
            {DATE}, {TIME} - {P1}: great
            """));
        HELDOUT.add(doc("h-git-graph", "git", """
            * {SHORTSHA} - {TOPICCOMMIT} ({RELDATE}) <{P1}>
            * {SHORTSHA} - {TOPICCOMMIT} ({RELDATE}) <{P2}>
            Reviewed-by: {P3} <{E3}>
            """));
        HELDOUT.add(doc("h-cal", "calendar", """
            Event: {TOPIC}
            When: {WEEKDAY} {DATE}, {TIME}
            Who: {P1} (organizer), {R2}, {R3}
            Where: {CITY}
            """));
        HELDOUT.add(doc("h-vcard", "directory", """
            BEGIN:VCARD
            VERSION:3.0
            FN:{P1}
            N:{L1};{F1};;;
            ORG:{ORG}
            EMAIL:{E1}
            END:VCARD
            """));
        HELDOUT.add(doc("h-html", "directory", """
            <table>
            *<tr><td>{P1}</td><td>{JOB}</td><td>{CITY}</td></tr>
            </table>
            """));
        HELDOUT.add(doc("h-sql", "code", """
            INSERT INTO contacts (first_name, last_name, city) VALUES ('{F1}', '{L1}', '{CITY}');
            UPDATE tickets SET assignee = '{P2}' WHERE id = {NUM};
            DELETE FROM sessions WHERE expires_at < now();
            """));
        HELDOUT.add(doc("h-python", "code", """
            alice = User(name="{P1}", email="{E1}")
            logger.info("assigned %s to %s", ticket_id, "{P2}")
            """));
        HELDOUT.add(doc("h-xml", "config", """
            <developer>
              <name>{P1}</name>
              <email>{E1}</email>
              <organization>{ORG}</organization>
            </developer>
            """));
        HELDOUT.add(doc("h-properties", "config", """
            app.owner.name={P1}
            app.region={CITY}
            app.support.contact={P2}
            """));
        HELDOUT.add(doc("h-crm-lead", "crm", """
            Lead {NUM} - {P1}, {JOB} at {ORG} ({CITY}, {COUNTRY}); source: {CAMPAIGN}; rep: {F2}
            """));
        HELDOUT.addAll(nativeText("h-native", "de", """
            Hallo {F1}, anbei die Unterlagen für das Meeting mit {P2} am Donnerstag.
            Die Abteilung Einkauf bittet um Rückmeldung bis Ende der Woche.
            """));
        HELDOUT.addAll(nativeText("h-native", "fr", """
            Madame {L1} a confirmé sa présence à la réunion de mardi à Paris.
            """));
        HELDOUT.addAll(nativeText("h-native", "es", """
            El pedido de {P1} llegará a Barcelona el próximo martes.
            """));
        HELDOUT.addAll(nativeText("h-native", "ru", """
            Исполнитель: {P1}; наблюдатель: {P2}.
            """));
        HELDOUT.addAll(nativeText("h-native", "uk", """
            Добрий день, {F1}! Зустріч перенесено на четвер.
            З повагою, {P1}
            """));
        HELDOUT.addAll(nativeText("h-native", "hu", """
            Kedves {F1}! A megbeszélés csütörtökre módosult.
            Üdvözlettel: {P1}
            """));
        HELDOUT.addAll(nativeText("h-native", "fi-FI", """
            Hei {F1}, kokous siirtyy torstaille.
            """));
        HELDOUT.addAll(nativeText("h-native", "el-GR", """
            Αγαπητέ κύριε {L1}, σας ευχαριστούμε για την παραγγελία σας.
            """));
        HELDOUT.addAll(nativeText("h-native", "ja", """
            作成者：{P1}
            """));
        HELDOUT.addAll(nativeText("h-native", "zh-TW", """
            聯絡人：{P1}，電話：{PHONE}
            """));
        HELDOUT.addAll(nativeText("h-native", "ar", """
            عزيزي {F1}، نشكرك على تواصلك معنا.
            """));
        HELDOUT.addAll(nativeText("h-native", "pl", """
            Pozdrawiam serdecznie, {P1}
            """));
        HELDOUT.addAll(nativeText("h-native", "tr", """
            Toplantı notları {P1} tarafından hazırlandı.
            """));
        HELDOUT.addAll(nativeText("h-native", "it", """
            La pratica è stata assegnata a {P1} dell'Ufficio Legale.
            """));
        HELDOUT.addAll(nativeText("h-native", "pt", """
            Caro {F1}, o contrato foi assinado ontem em Lisboa.
            """));
        for (String locale : List.of("uk", "ru", "el-GR", "ar", "he", "ja", "zh-TW", "ko", "hu", "fi-FI")) {
            HELDOUT.addAll(nativeText("h-native-words", locale, """
                {NATIVE} ({NATIVE}) {NUM}
                {P1}; {NATIVE}
                """));
        }
        HELDOUT.addAll(singles("h-neg", "negative", """
            Our new data center in {SURNAMEPLACE} opens in {MONTH}.
            {PRODUCT} vs {PRODUCT}: which {TECH} client is faster?
            Error: cannot find module '{FILE}'
            Population of {CITY}: 2.1 million ({COUNTRY}, {YEAR})
            {ORG} earnings call - {WEEKDAY} {TIME} CET
            All {DEPT} staff: {HOLIDAY} schedule for the {CITY} office
            {LEVEL} {TS} {CLASS}: {MSG}
            The {LANDMARK} in {CITY} is closed on {WEEKDAY}s.
            {ASSISTANT}, set a timer for 10 minutes.
            {NATIONALITY} startups raised {AMOUNT} in {MONTH}.
            """));
    }

    /* Issue 14 shapes in the held-out split, worded differently from training. */
    static {
        HELDOUT.addAll(singles("h-list", "list", """
            Co-founded by {L1}, {L2} and {L3} in {CITY}.
            On stage tonight: {P1}, {P2} and {P3}.
            Signed by {P1}, {P2} & {P3}
            Guests - {F1}, {F2}, {F3}
            Contributors: {P1}, {IL2}, {P3}, and {P4}
            """));
        HELDOUT.add(doc("h-dialogue", "dialogue", """
            {F1}: anyone know where the {PRODUCT} keys are?
            {F2}: check the vault
            {F1}: found them, ty
            """));
        HELDOUT.addAll(singles("h-cue", "cue", """
            hi my name is {F1} and my {PRODUCT} will not turn on
            This is {F1} again, following up on ticket {NUM}.
            You can reach me, {F1}, on weekdays.
            Love, {F1}
            Many thanks, {N1}
            """));
        HELDOUT.addAll(singles("h-title", "title", """
            Tonight's film is "{P1}" starring {P2}.
            Chapter 3, "{F1} Goes to {CITY}", was rewritten by {P2}.
            "It is not my decision," {L1} told reporters.
            """));
        HELDOUT.add(doc("h-surname", "surname", """
            Our guest today is {P1}, a {JOB} from {CITY}.
            {L1} has worked at {ORG} since {YEAR}.
            """));
        HELDOUT.addAll(singles("h-neg-list", "negative", """
            Regions: {COUNTRY}, {COUNTRY}, {COUNTRY}.
            Stack: {PRODUCT}, {PRODUCT} and {LANG}.
            Hi all, {PRODUCT} is down in {CITY}.
            Severity: {PRIO}
            """));
    }

    // =====================================================================================
    // Vocabulary
    // =====================================================================================

    /** Words for a slot: {@code train} in both splits, {@code heldoutOnly} only in HELDOUT. */
    private record Words(String[] train, String[] heldoutOnly) {
        static Words of(String train, String heldoutOnly) {
            return new Words(train.split("\\s*\\|\\s*"), heldoutOnly.isEmpty() ? new String[0] : heldoutOnly.split("\\s*\\|\\s*"));
        }
    }

    private static final Map<String, Words> WORDS = Map.ofEntries(
        Map.entry("CITY", Words.of(
            "New York | Los Angeles | San Francisco | London | Paris | Berlin | Munich | Frankfurt | Madrid | Barcelona"
                + " | Rome | Milan | Amsterdam | Rotterdam | Brussels | Vienna | Zurich | Geneva | Stockholm | Oslo"
                + " | Copenhagen | Warsaw | Prague | Lisbon | Dublin | Edinburgh | Manchester | Toronto | Vancouver"
                + " | Chicago | Boston | Seattle | Dallas | Miami | Atlanta | Denver | Tokyo | Osaka | Seoul | Beijing"
                + " | Shanghai | Singapore | Mumbai | Delhi | Bangalore | Lagos | Nairobi | Cairo | Johannesburg"
                + " | Cape Town | Melbourne | São Paulo | Rio de Janeiro | Mexico City | Buenos Aires | Bogotá"
                + " | Istanbul | Dubai | Tel Aviv | Moscow | Athens | Lyon | Marseille | Hamburg | Cologne | Kraków"
                + " | Gdańsk | Düsseldorf | Zürich | Montréal | Québec | Reykjavík | Łódź | Thessaloniki | Москва"
                + " | Санкт-Петербург | 東京 | 北京 | 上海 | 서울 | القاهرة | Αθήνα | Frankfurt am Main | Los Gatos",
            "Helsinki | Budapest | Bucharest | Sofia | Riga | Tallinn | Vilnius | Porto | Seville | Valencia | Naples"
                + " | Turin | Hanoi | Bangkok | Jakarta | Manila | Karachi | Lahore | Accra | Kigali | Casablanca"
                + " | Montevideo | Santiago | Lima | Quito | Calgary | Ottawa | Portland | Pittsburgh | Detroit"
                + " | Minneapolis | Kyoto | Busan | Shenzhen | Київ | 大阪 | Bordeaux | Leipzig | Antwerp | Gothenburg")),
        Map.entry("SURNAMEPLACE", Words.of(
            // places that are also given or family names: a person context, not the word, makes a person
            "Washington | Jackson | Lincoln | Houston | Austin | Madison | Charlotte | Florence | Victoria | Hamilton"
                + " | Wellington | Nelson | Sydney | Orlando | Columbus | Cleveland | Kent | Chester | Preston | Darwin"
                + " | Adelaide | Regina | Lafayette | Raleigh | Dayton | Georgia | Jordan | Savannah | Aurora"
                + " | Beverly Hills | San José | Santa Clara | St. Louis | Fort Worth | Marion | Troy | Lourdes"
                + " | Washington, DC | Jackson, Mississippi | Paris, Texas",
            "Eugene | Everett | Tyler | Douglas | Clinton | Franklin | Jefferson City | Alexandria | Augusta"
                + " | Charleston | Lawrence | Logan | Sherman | Warren")),
        Map.entry("COUNTRY", Words.of(
            "France | Germany | Spain | Italy | Portugal | Netherlands | Belgium | Switzerland | Austria | Poland"
                + " | Sweden | Norway | Denmark | Ireland | United Kingdom | United States | Canada | Mexico | Brazil"
                + " | Argentina | Chile | Colombia | Peru | Japan | China | South Korea | India | Pakistan | Nigeria"
                + " | Kenya | Egypt | South Africa | Australia | New Zealand | Turkey | Greece | Russia | Ukraine"
                + " | Israel | Saudi Arabia | United Arab Emirates | Iran | Vietnam | Thailand | Indonesia"
                + " | Philippines | Georgia | Jordan | Chad | Niger | Armenia | Deutschland | España | Italia"
                + " | Россия | 日本 | 中国 | 대한민국 | Ελλάδα | مصر | USA | UK",
            "Finland | Hungary | Romania | Bulgaria | Czech Republic | Slovakia | Croatia | Serbia | Latvia"
                + " | Estonia | Lithuania | Iceland | Morocco | Tunisia | Ghana | Ethiopia | Malaysia | Bangladesh"
                + " | Sri Lanka | Nepal | Ecuador | Uruguay | Paraguay | Bolivia | Cuba | Jamaica | Luxembourg"
                + " | Malta | Cyprus | Qatar | Kuwait | Oman")),
        Map.entry("STATE", Words.of(
            "California | Texas | New York | Washington | Georgia | Virginia | Florida | Oregon | Nevada | Arizona"
                + " | Colorado | Ohio | Michigan | Illinois | Massachusetts | North Carolina | South Carolina"
                + " | Maryland | Louisiana | Indiana | Montana | TX | CA | NY | WA | GA | VA | Bavaria | Ontario",
            "Minnesota | Wisconsin | Kentucky | Tennessee | Alabama | Utah | Idaho | Vermont | Maine | Delaware")),
        Map.entry("ORG", Words.of(
            "Acme Corp | Acme Corporation | Globex | Initech | Umbrella Corporation | Stark Industries"
                + " | Wayne Enterprises | Contoso | Contoso Ltd | Fabrikam | Northwind Traders | Hooli | Pied Piper"
                + " | Vandelay Industries | Cyberdyne Systems | Google | Microsoft | Amazon Web Services | Apple | IBM"
                + " | Oracle | SAP | Siemens | Deutsche Bank | BNP Paribas | Toyota | Samsung | Airbus | Accenture"
                + " | Deloitte | Red Hat | GitHub | GitLab | Atlassian | Salesforce | Stripe | PayPal | Visa | DHL"
                + " | FedEx | United Nations | European Commission | World Health Organization | Mozilla Foundation"
                + " | Apache Software Foundation | Ford | Dell | Johnson & Johnson | Procter & Gamble | Ernst & Young"
                + " | McKinsey & Company | Goldman Sachs | Morgan Stanley | Wells Fargo | Disney | Boeing | Philips"
                + " | Ferrari | Porsche | Mercedes-Benz | Harvard University | University of Toronto"
                + " | Stanford University | Anthropic | OpenAI | Mistral AI | Hugging Face | Société Générale"
                + " | Crédit Agricole | Allianz | Nestlé | Unilever | Sony | Hitachi | Tata Consultancy Services"
                + " | Infosys | Wipro | Alibaba | Tencent | Huawei | Yandex | Sberbank | Aramco | Emirates"
                + " | Lufthansa | Air France | KLM | Ryanair | IKEA | Spotify | Volvo | Nokia | Ericsson | Zalando"
                + " | Adidas | Puma | Marks & Spencer | Sainsbury's | Tiffany & Co. | Louis Vuitton | Hermès",
            "Dunder Mifflin | Soylent Corp | Wonka Industries | Tyrell Corporation | Massive Dynamic | Intel"
                + " | Nvidia | AMD | Cisco | VMware | Adobe | Netflix | Uber | Airbnb | Shopify | Twilio | HSBC"
                + " | Barclays | ING | Rabobank | Santander | UniCredit | Renault | Peugeot | Fiat | Hyundai | Honda"
                + " | Bosch | BASF | Bayer | Novartis | Roche | Pfizer | Heineken | Carlsberg | Lego | Maersk"
                + " | Oxford University | ETH Zürich | Sorbonne | MIT | Chanel | Dior | Kellogg's | McDonald's")),
        Map.entry("ORGWORD", Words.of(
            "Blue | North | Silver | Bright | Red | Green | Summit | Apex | Pioneer | Quantum | Vertex | Harbor"
                + " | Granite | Cedar | Evergreen | Iron | Nova | Atlas | Orion | Delta | Alpine | Coastal | Golden"
                + " | Crystal | Prime | United | Global | Pacific | Atlantic | Nordic", "Sterling | Meridian | Beacon")),
        Map.entry("ORGNOUN", Words.of(
            "Labs | Systems | Logistics | Analytics | Software | Health | Energy | Capital | Partners | Foods | Media"
                + " | Networks | Robotics | Dynamics | Solutions | Holdings | Bank | Insurance | Pharma | Motors"
                + " | Consulting | Ventures | Technologies | Telecom", "Biotech | Aerospace | Realty")),
        Map.entry("ORGSUFFIX", Words.of(
            "Inc. | Ltd | GmbH | S.A. | LLC | AG | B.V. | Corp. | plc | SAS | S.p.A. | Oy | AB | K.K. | Group", "Pty Ltd | SE")),
        Map.entry("PRODUCT", Words.of(
            "Kubernetes | Docker | PostgreSQL | MySQL | Redis | Kafka | Elasticsearch | Jenkins | Ansible | Terraform"
                + " | Grafana | Prometheus | Nginx | Apache | Tomcat | Quarkus | Spring Boot | Hibernate | React"
                + " | Angular | Vue | Node.js | Excel | Outlook | Microsoft Teams | Slack | Zoom | Jira | Confluence"
                + " | Salesforce | SharePoint | Windows | Linux | Ubuntu | Debian | macOS | Android | iOS | iPhone"
                + " | iPad | MacBook Pro | ThinkPad | Chrome | Firefox | Safari | Photoshop | Figma | Notion | Hudson"
                + " | Mercurial | Git | Maven | Gradle | Bamboo | TeamCity | Sentry | Datadog | Splunk | Kibana"
                + " | Logstash | Vault | Consul | Nomad | Istio | Envoy | Helm | Argo CD | OpenShift | AWS Lambda"
                + " | Azure DevOps | Google Cloud | BigQuery | Snowflake | Tableau | Power BI | SAP HANA"
                + " | Dynamics 365 | HubSpot | Zendesk | Freshdesk | ServiceNow | Workday | QuickBooks | PagerDuty"
                + " | Opsgenie | Bitbucket | WordPress | Drupal | Magento | Alexa | Cortana | Siri | Copilot | Gemini",
            "Cassandra | MongoDB | RabbitMQ | ActiveMQ | Airflow | Spark | Hadoop | Flink | Keycloak | Traefik"
                + " | HAProxy | Caddy | Varnish | Memcached | CouchDB | Neo4j | ClickHouse | Trello | Asana"
                + " | Monday.com | Basecamp | Dropbox | OneDrive | Webex | Skype | Signal | Telegram | WhatsApp"
                + " | Thunderbird | LibreOffice")),
        Map.entry("LANG", Words.of(
            "Java | Kotlin | Scala | Python | Ruby | Rust | Go | Julia | Perl | PHP | Swift | TypeScript | JavaScript"
                + " | C# | Haskell | Elixir | Erlang | Clojure | Dart | Lua | R | MATLAB | COBOL | Fortran | Pascal"
                + " | Ada | Crystal | Groovy", "Nim | Zig | OCaml | Prolog | Smalltalk | Delphi | Racket")),
        Map.entry("OS", Words.of(
            "Windows 11 | Windows Server 2022 | Ubuntu 22.04 | Debian 12 | macOS Sonoma | Android 14 | iOS 17"
                + " | Red Hat Enterprise Linux 9 | Fedora 40 | Alpine Linux | ChromeOS",
            "FreeBSD | openSUSE | Arch Linux | Windows 10")),
        Map.entry("ASSISTANT", Words.of("Alexa | Siri | Cortana | Copilot | ChatGPT | Claude | Gemini", "Bixby | Watson | Jarvis")),
        Map.entry("FILE", Words.of(
            "README.md | pom.xml | package.json | Dockerfile | docker-compose.yml | application.properties"
                + " | index.html | main.py | UserService.java | CHANGELOG.md | LICENSE | Makefile | .gitignore"
                + " | config.yaml | settings.json | report_2024.pdf | Invoice-4411.pdf | build.gradle | tsconfig.json"
                + " | go.mod | Cargo.toml | requirements.txt | CONTRIBUTING.md | values.yaml | Chart.yaml"
                + " | nginx.conf | .env.example | schema.sql | customers.csv | Q3_Forecast.xlsx"
                + " | Onboarding Guide.docx | setup.py | webpack.config.js | AndroidManifest.xml | Info.plist",
            "SECURITY.md | Gemfile | Pipfile | yarn.lock | pnpm-lock.yaml | Jenkinsfile | Vagrantfile | Procfile"
                + " | tox.ini | .editorconfig | CODEOWNERS | mkdocs.yml | Budget_2025.xlsx | Minutes.docx")),
        Map.entry("CLASS", Words.of(
            "UserService | CustomerRepository | OrderController | PaymentGateway | InvoiceMapper | AccountManager"
                + " | SessionFactory | HttpClient | StringBuilder | HashMap | AbstractFactoryBean | ContactImporter"
                + " | TicketAssigner | AuthFilter | RateLimiter | RetryPolicy | KafkaConsumer | JsonParser"
                + " | EmailSender | ReportGenerator | MainActivity | AppDelegate | UserProfileView | NameFormatter"
                + " | AddressValidator | GatewayServer | ToolRegistry",
            "BillingScheduler | LedgerEntry | AuditTrail | ProfileCache | TokenVault | CsvExporter"
                + " | OrgChartBuilder | MailboxSync")),
        Map.entry("METHOD", Words.of(
            "getUserName | setFirstName | findByLastName | getFullName | processOrder | sendInvoice | validateEmail"
                + " | toString | hashCode | parseJson | handleRequest | init | run | main | close | assignTicket"
                + " | resolveOwner", "reconcile | flushQueue | renderRow")),
        Map.entry("FIELD", Words.of(
            "firstName | lastName | fullName | customer_name | user_id | createdAt | isActive | MAX_RETRIES"
                + " | DEFAULT_TIMEOUT | displayName | given_name | family_name | ownerId | assigneeEmail",
            "middleName | nickName | surname")),
        Map.entry("PKG", Words.of(
            "com.acme.crm | org.example.billing | net.contoso.auth | dev.example.tickets"
                + " | o.s.b.w.embedded.tomcat | org.hibernate.engine | io.netty.channel",
            "com.globex.ledger | org.example.mail")),
        Map.entry("EXC", Words.of(
            "NullPointerException | IllegalStateException | IllegalArgumentException | IOException"
                + " | TimeoutException | ConnectException | SQLException | ClassNotFoundException | OutOfMemoryError"
                + " | ConcurrentModificationException | NumberFormatException | ValueError | KeyError | TypeError"
                + " | ZeroDivisionError | FileNotFoundError | PermissionError",
            "StackOverflowError | UnsupportedOperationException | IndexError")),
        Map.entry("MSG", Words.of(
            "Connection refused | Read timed out after 30000 ms | Cache miss for key {HEX}"
                + " | Retrying in 5 seconds (attempt 3 of 5) | Health check passed | Started {CLASS} in 2.3 seconds"
                + " | Scheduled job {SLUG} finished | Received {CODE} from {DOMAIN} | Pool exhausted; 32 active connections"
                + " | Certificate expires in 14 days | Disk usage at 91% on /var/lib/postgresql"
                + " | Deprecated API {PATH} called | Batch of 500 records committed | Loaded 42 tools from {PRODUCT}",
            "Queue depth above threshold | GC pause 812 ms | Reindex of {SLUG} complete")),
        Map.entry("LEVEL", Words.of("ERROR | WARN | WARNING | INFO | DEBUG | TRACE | FATAL | CRITICAL | NOTICE | SEVERE",
            "ALERT | EMERG | FINE | VERBOSE")),
        Map.entry("HTTP", Words.of("GET | POST | PUT | DELETE | PATCH | HEAD | OPTIONS", "")),
        Map.entry("PATH", Words.of(
            "/api/v1/users | /api/v1/users/{NUM} | /orders/{NUM}/items | /health | /metrics | /login | /oauth/token"
                + " | /v2/customers/search?q=active | /static/app.js", "/admin/reports | /api/v3/invoices/{NUM}")),
        Map.entry("CODE", Words.of("200 | 201 | 204 | 301 | 400 | 401 | 403 | 404 | 409 | 429 | 500 | 502 | 503", "")),
        Map.entry("HOST", Words.of("web-01 | db-primary | ip-10-0-3-17 | prod-eu-west-1a | build-agent-7 | mail | vpn-gw",
            "edge-03 | cache-02")),
        Map.entry("DOMAIN", Words.of("example.com | api.example.org | acme.io | status.contoso.com | internal.globex.net",
            "cdn.example.net")),
        Map.entry("JOBLIST", Words.of(
            "Account Manager | Customer Success Manager | Software Engineer | Senior Software Engineer"
                + " | Product Manager | Head of Sales | Chief Financial Officer | CTO | CEO | VP Engineering"
                + " | Support Agent | Data Scientist | HR Business Partner | Office Manager | Legal Counsel"
                + " | Nurse Practitioner | Project Coordinator | Site Reliability Engineer | Recruiter | Sales Director",
            "Solutions Architect | Paralegal | Controller")),
        Map.entry("DEPT", Words.of(
            "Sales | Marketing | Finance | Human Resources | Legal | Engineering | Customer Success | Support"
                + " | Operations | Procurement | IT | Security | Research and Development | Billing"
                + " | Accounts Payable | Facilities | Compliance | Data Platform",
            "Treasury | Logistics | Quality Assurance")),
        Map.entry("STATUS", Words.of(
            "Open | Closed | Resolved | In Progress | Pending | Won't Fix | Escalated | New | On Hold"
                + " | Waiting for Customer | ACTIVE | INACTIVE | Done", "Reopened | Duplicate")),
        Map.entry("PRIO", Words.of("Low | Medium | High | Urgent | P1 | P2 | P3 | Critical | Blocker | Minor | Major", "Trivial")),
        Map.entry("STAGE", Words.of("Prospecting | Qualification | Proposal | Negotiation | Closed Won | Closed Lost", "Discovery")),
        Map.entry("TOPIC", Words.of(
            "Invoice {NUM} overdue | Quarterly Business Review | Password reset request | VPN not working"
                + " | Refund for order {NUM} | Contract renewal | Onboarding checklist | Q3 Roadmap"
                + " | Server outage in {CITY} | Welcome to {ORG} | Your {PRODUCT} subscription"
                + " | Action required: update billing details | Cannot export report to {FILE} | Login loop on {PRODUCT}"
                + " | Budget planning {YEAR} | Shipment delayed at {CITY} hub | Security review for {PRODUCT}"
                + " | Offsite in {CITY} | Sprint Planning | Weekly Sync | Board Meeting | All Hands | Design Review"
                + " | Migration to {PRODUCT} | Data request under GDPR | New laptop request | Travel reimbursement",
            "Pricing question | Renewal quote for {ORG} | Broken link on {PATH} | Duplicate charge | Account locked"
                + " | Feature request: dark mode | Town Hall | Retrospective")),
        Map.entry("TOPICCOMMIT", Words.of(
            "Fix {EXC} in {CLASS} | Add retry to {CLASS} | Bump {PRODUCT} to {VERSION} | Refactor {METHOD}"
                + " | Update {FILE} | Remove unused imports | Initial commit | Merge branch 'main' into feature/{SLUG}"
                + " | Improve logging in {CLASS} | Translate UI strings | Document {FIELD}",
            "Revert {SHORTSHA} | Speed up {METHOD}")),
        Map.entry("SLUG", Words.of("login-timeout | csv-export | dark-mode | retry-backoff | fix-npe | upgrade-deps | billing-v2"
            + " | search-index", "perf-tuning | i18n")),
        Map.entry("PROJ", Words.of("CRM | OPS | SUP | BILL | INFRA | WEB | APP | SEC | DATA | HR", "FIN | QA")),
        Map.entry("CHANNEL", Words.of("general | random | eng-backend | support-escalations | sales-emea | incidents"
            + " | release-train | design", "watercooler")),
        Map.entry("HEADER", Words.of(
            "Action Items | Next Steps | Attendees | Notes | Summary | Agenda | Minutes | Decisions | Risks"
                + " | Open Questions | Background | Timeline | Overview | Requirements | Known Issues | Release Notes"
                + " | Status Update | Highlights | Customer Feedback", "Lessons Learned | Appendix")),
        Map.entry("HOLIDAY", Words.of(
            "Christmas | Easter Monday | Thanksgiving | Labor Day | Independence Day | New Year's Day | Boxing Day"
                + " | Good Friday | Bastille Day | Golden Week | Diwali | Eid al-Fitr | Lunar New Year | Memorial Day"
                + " | Whit Monday", "Hanukkah | Carnival | Midsummer")),
        Map.entry("LANDMARK", Words.of(
            "Eiffel Tower | Golden Gate Bridge | Central Park | Buckingham Palace | Brandenburg Gate"
                + " | Victoria Station | Lincoln Memorial | Washington Monument | St. Peter's Basilica"
                + " | Sagrada Família | Times Square | Trafalgar Square | King's Cross | Grand Central Terminal"
                + " | Madison Square Garden | Lake Victoria",
            "Alexanderplatz | Charles Bridge | Hyde Park | Kennedy Space Center | Franklin Park")),
        Map.entry("RESTAURANT", Words.of("Café Central | The Ivy | Nando's | Pizzeria Napoli | Sushi Bar Zen"
            + " | The Green Olive | Le Petit Bistro | Wagamama", "Chez Panisse")),
        Map.entry("RELATION", Words.of("spouse | mother | father | sister | brother | partner | daughter | son | friend"
            + " | neighbour", "guardian")),
        Map.entry("HELLO", Words.of("Hi | Hello | Hey | Dear | Good morning | Hallo | Bonjour | Hola | Ciao | Olá | Hej"
            + " | Merhaba | Здравствуйте | Привет | Γεια σου | Hoi | Cześć | Ahoj | Salut", "Moin | Tere | Szia")),
        Map.entry("CAMPAIGN", Words.of("Webinar {MONTH} {YEAR} | Trade Show {CITY} | Google Ads | LinkedIn | Referral"
            + " | Newsletter | Partner Portal", "Cold Call")),
        Map.entry("CAT", Words.of("Electronics | Office Supplies | Furniture | Software Licenses | Hardware | Books"
            + " | Garden | Sports", "Toys")),
        Map.entry("NATIONALITY", Words.of("French | German | Spanish | Italian | Dutch | Polish | Swedish | Turkish"
            + " | Russian | Greek | Japanese | Chinese | Korean | Indian | Nigerian | Brazilian | Mexican | American"
            + " | British | Canadian", "Finnish | Hungarian | Kenyan")),
        Map.entry("WEEKDAY", Words.of("Monday | Tuesday | Wednesday | Thursday | Friday | Saturday | Sunday | Mon | Tue"
            + " | Wed | Thu | Fri", "Sat | Sun")),
        Map.entry("MONTH", Words.of("January | February | March | April | May | June | July | August | September"
            + " | October | November | December", "")),
        Map.entry("PLABEL", Words.of(
            "Assignee | Assigned to | Owner | Account owner | Created by | Updated by | Modified by | Approved by"
                + " | Approver | Reviewer | Reviewed by | Requested by | Requester | Reporter | Author | Contact"
                + " | Contact person | Customer | Client | Employee | Manager | Line manager | Supervisor"
                + " | Sales representative | Account manager | Agent | Technician | Driver | Courier | Signed by"
                + " | Prepared by | Submitted by | Handled by | Escalated to | Caller | Attendee | Speaker | Host"
                + " | Interviewer | Candidate | Applicant | Beneficiary | Policy holder | Cardholder | Consignee"
                + " | Buyer | Seller | Landlord | Emergency contact | Next of kin | Doctor | Nurse | Teacher | Student"
                + " | Passenger | Member | Volunteer | Maintainer | Committer | Co-author | Editor | Translator"
                + " | Chair | Secretary | Treasurer | Notary | Name | Full name | Display name | Your name",
            "Occupant | Guarantor | Referee | Coach")),
        Map.entry("PKEY", Words.of(
            "owner | assignee | assigned_to | created_by | updated_by | approver | reviewer | requester | reporter"
                + " | author | contact_name | customer_name | client_name | employee_name | manager | sales_rep"
                + " | account_owner | agent_name | driver | signed_by | prepared_by | full_name | displayName | name"
                + " | holder_name | cardholder | beneficiary | passenger_name | emergency_contact | maintainer"
                + " | contactName | customerName | ownerName | assigneeName",
            "occupant_name | guarantor")),
        Map.entry("NLABEL", Words.of(
            "Location | City | Company | Organization | Product | Team | Department | Region | Country | Project"
                + " | Category | Status | Priority | Plan | Tier | Service | Environment | Queue | Stage | Vendor"
                + " | Brand | Model | Channel | Site | Office | Branch | Venue | Destination | Origin | Account",
            "Warehouse | Campus | Carrier")),
        Map.entry("NKEY", Words.of(
            "location | city | company | organization | product | team | department | region | country | project"
                + " | category | status | vendor | brand | site | office | venue | destination | account_name",
            "warehouse | carrier")),
        Map.entry("WDAY", Words.of("Mon | Tue | Wed | Thu | Fri | Sat | Sun", "")),
        Map.entry("MON", Words.of("Jan | Feb | Mar | Apr | May | Jun | Jul | Aug | Sep | Oct | Nov | Dec", "")));

    /** Everyday words and phrases per locale, for {@code {NATIVE}}; hard negatives in each script. */
    private static final Map<String, String[]> NATIVE_PHRASES = Map.ofEntries(
        Map.entry("ru", "Добрый день | Спасибо | Заказ отправлен | Счёт оплачен | Статус | Выполнено | Срочно | Отдел кадров | Понедельник | Договор | Поставщик | Служба поддержки | Итого | В работе | Новая задача".split(" \\| ")),
        Map.entry("uk", "Дякую | Замовлення | Оплачено | В роботі | Відділ продажу | Понеділок | Рахунок | Терміново".split(" \\| ")),
        Map.entry("bg", "Благодаря | Поръчка | Платено | В процес | Отдел продажби | Понеделник | Фактура | Спешно".split(" \\| ")),
        Map.entry("el-GR", "Ευχαριστώ πολύ | Καλημέρα σας | Παραγγελία | Τιμολόγιο | Εκκρεμεί | Ολοκληρώθηκε | Δευτέρα | Τμήμα Πωλήσεων | Σύμβαση | Επείγον | Σύνολο".split(" \\| ")),
        Map.entry("ar", "شكرا جزيلا | طلب جديد | تم الدفع | قيد المعالجة | يوم الاثنين | قسم المبيعات | فاتورة | عاجل | المجموع".split(" \\| ")),
        Map.entry("fa", "با تشکر | سفارش جدید | پرداخت شد | در حال بررسی | دوشنبه | واحد فروش | فاکتور | فوری".split(" \\| ")),
        Map.entry("he", "תודה רבה | הזמנה חדשה | שולם | בטיפול | יום שני | מחלקת מכירות | חשבונית | דחוף".split(" \\| ")),
        Map.entry("ja", "ありがとうございます | 注文 | 発送済み | 処理中 | 月曜日 | 営業部 | 請求書 | 至急 | 合計".split(" \\| ")),
        Map.entry("zh-CN", "谢谢 | 订单已发货 | 已付款 | 处理中 | 星期一 | 销售部 | 发票 | 紧急 | 合计".split(" \\| ")),
        Map.entry("zh-TW", "謝謝 | 訂單已出貨 | 已付款 | 處理中 | 星期一 | 業務部 | 發票".split(" \\| ")),
        Map.entry("ko", "감사합니다 | 주문 | 배송 완료 | 처리 중 | 월요일 | 영업팀 | 청구서 | 긴급 | 합계".split(" \\| ")),
        Map.entry("vi", "Cảm ơn | Đơn hàng | Đã thanh toán | Đang xử lý | Thứ Hai | Phòng Kinh doanh | Hóa đơn | Khẩn".split(" \\| ")),
        Map.entry("tr", "Teşekkürler | Sipariş | Ödendi | İşlemde | Pazartesi | Satış Departmanı | Fatura | Acil".split(" \\| ")),
        Map.entry("de", "Vielen Dank | Bestellung | Bezahlt | In Bearbeitung | Montag | Vertrieb | Rechnung | Dringend | Gesamtbetrag | Lieferschein".split(" \\| ")),
        Map.entry("fr", "Merci beaucoup | Commande | Payée | En cours | Lundi | Service Commercial | Facture | Urgent | Montant Total".split(" \\| ")),
        Map.entry("th", "ขอบคุณ | คำสั่งซื้อ | ชำระแล้ว | กำลังดำเนินการ | วันจันทร์ | ฝ่ายขาย | ใบแจ้งหนี้".split(" \\| ")),
        Map.entry("hu", "Köszönöm | Megrendelés | Fizetve | Folyamatban | Hétfő | Értékesítés | Számla".split(" \\| ")),
        Map.entry("fi-FI", "Kiitos | Tilaus | Maksettu | Käsittelyssä | Maanantai | Myynti | Lasku".split(" \\| ")));

    /** Resolves non-person placeholders. Everything random comes from the corpus {@link Random}. */
    static final class Vocabulary {
        private final PersonCorpus.Split split;
        private final Faker en;
        private final Random rnd;

        Vocabulary(PersonCorpus.Split split, Faker en, Random rnd) {
            this.split = split;
            this.en = en;
            this.rnd = rnd;
        }

        String value(String slot, String locale, Map<String, Faker> fakers) {
            return switch (slot) {
                case "NUM" -> Integer.toString(1 + rnd.nextInt(rnd.nextBoolean() ? 999 : 99999));
                case "DAYNUM" -> Integer.toString(1 + rnd.nextInt(28));
                case "YEAR" -> Integer.toString(2019 + rnd.nextInt(8));
                case "HEX" -> hex(8 + rnd.nextInt(25));
                case "SHA" -> hex(40);
                case "SHORTSHA" -> hex(7);
                case "IP" -> (10 + rnd.nextInt(180)) + "." + rnd.nextInt(256) + "." + rnd.nextInt(256) + "." + rnd.nextInt(256);
                case "VERSION" -> (rnd.nextBoolean() ? "v" : "") + rnd.nextInt(20) + "." + rnd.nextInt(40) + "." + rnd.nextInt(12);
                case "AMOUNT" -> amount();
                case "TIME" -> time();
                case "DATE" -> date();
                case "ISODATE" -> String.format(Locale.ROOT, "%d-%02d-%02dT%02d:%02d:%02dZ", 2019 + rnd.nextInt(8), 1 + rnd.nextInt(12),
                    1 + rnd.nextInt(28), rnd.nextInt(24), rnd.nextInt(60), rnd.nextInt(60));
                case "TS" -> String.format(Locale.ROOT, rnd.nextBoolean() ? "%d-%02d-%02dT%02d:%02d:%02d.%03dZ" : "%d-%02d-%02d %02d:%02d:%02d,%03d",
                    2019 + rnd.nextInt(8), 1 + rnd.nextInt(12), 1 + rnd.nextInt(28), rnd.nextInt(24), rnd.nextInt(60),
                    rnd.nextInt(60), rnd.nextInt(1000));
                case "RFCDATE" -> String.format(Locale.ROOT, "%s, %d %s %d %02d:%02d:%02d +0%d00", pick("WDAY"), 1 + rnd.nextInt(28),
                    pick("MON"), 2019 + rnd.nextInt(8), rnd.nextInt(24), rnd.nextInt(60), rnd.nextInt(60), rnd.nextInt(3));
                case "GITDATE" -> String.format(Locale.ROOT, "%s %s %d %02d:%02d:%02d %d +0%d00", pick("WDAY"), pick("MON"),
                    1 + rnd.nextInt(28), rnd.nextInt(24), rnd.nextInt(60), rnd.nextInt(60), 2019 + rnd.nextInt(8), rnd.nextInt(3));
                case "ICSDATE" -> String.format(Locale.ROOT, "%d%02d%02dT%02d%02d00Z", 2019 + rnd.nextInt(8), 1 + rnd.nextInt(12),
                    1 + rnd.nextInt(28), rnd.nextInt(24), rnd.nextInt(4) * 15);
                case "RELDATE" -> (1 + rnd.nextInt(11)) + " " + pick(new String[] {"minutes", "hours", "days", "weeks", "months"}) + " ago";
                case "PHONE" -> fakers.getOrDefault(locale, en).phoneNumber().phoneNumber();
                case "STREET" -> fakers.getOrDefault(locale, en).address().streetAddress();
                case "JOB" -> rnd.nextBoolean() ? en.job().title() : pick("JOBLIST");
                case "PRODUCTNAME" -> en.commerce().productName();
                case "ORG" -> rnd.nextDouble() < 0.3
                    ? pick("ORGWORD") + " " + pick("ORGNOUN") + (rnd.nextBoolean() ? " " + pick("ORGSUFFIX") : "")
                    : pick("ORG");
                case "TECH" -> pick("PRODUCT");
                case "NATIVE" -> nativeWords(locale, fakers.getOrDefault(locale, en));
                default -> pick(slot);
            };
        }

        /**
         * Non-name words in the locale's own language and script: hand-written phrases, plus the
         * Datafaker providers that are actually localised for it (many fall back to English).
         */
        private String nativeWords(String locale, Faker f) {
            String[] phrases = NATIVE_PHRASES.getOrDefault(locale, new String[0]);
            List<Supplier<String>> generated = switch (locale) {
                case "ru", "uk" -> List.of(f.address()::city, f.color()::name, f.commerce()::department,
                    f.commerce()::productName, f.address()::country);
                case "ar" -> List.of(f.address()::city, f.company()::industry, f.color()::name,
                    f.commerce()::department, f.commerce()::productName, f.address()::country);
                case "ko" -> List.of(f.address()::city, f.color()::name, f.lorem()::word);
                case "ja" -> List.of(f.address()::city, f.color()::name, f.lorem()::word);
                case "de" -> List.of(f.commerce()::productName, f.address()::country, f.color()::name,
                    f.commerce()::department);
                case "tr" -> List.of(f.address()::city, f.color()::name, f.address()::country);
                case "vi" -> List.of(f.address()::city, f.lorem()::word);
                case "zh-CN", "zh-TW", "he" -> List.of(f.address()::city);
                default -> List.of();
            };
            int n = phrases.length + generated.size();
            if (n == 0) {
                return en.commerce().productName();
            }
            int i = rnd.nextInt(n);
            return i < phrases.length ? phrases[i] : generated.get(i - phrases.length).get();
        }

        private String pick(String slot) {
            Words w = WORDS.get(slot);
            if (w == null) {
                throw new IllegalArgumentException("unknown placeholder {" + slot + "}");
            }
            int n = w.train().length + (split == PersonCorpus.Split.HELDOUT ? w.heldoutOnly().length : 0);
            int i = rnd.nextInt(n);
            return i < w.train().length ? w.train()[i] : w.heldoutOnly()[i - w.train().length];
        }

        private String pick(String[] values) {
            return values[rnd.nextInt(values.length)];
        }

        private String hex(int n) {
            StringBuilder b = new StringBuilder(n);
            for (int i = 0; i < n; i++) {
                b.append("0123456789abcdef".charAt(rnd.nextInt(16)));
            }
            return b.toString();
        }

        private String time() {
            int h = rnd.nextInt(24);
            int m = rnd.nextInt(12) * 5;
            return rnd.nextInt(3) == 0
                ? String.format(Locale.ROOT, "%d:%02d %s", h % 12 == 0 ? 12 : h % 12, m, h < 12 ? "AM" : "PM")
                : String.format(Locale.ROOT, "%02d:%02d", h, m);
        }

        private String date() {
            int y = 2019 + rnd.nextInt(8);
            int mo = 1 + rnd.nextInt(12);
            int d = 1 + rnd.nextInt(28);
            return switch (rnd.nextInt(5)) {
                case 0 -> String.format(Locale.ROOT, "%d-%02d-%02d", y, mo, d);
                case 1 -> String.format(Locale.ROOT, "%02d/%02d/%d", d, mo, y);
                case 2 -> d + " " + WORDS.get("MONTH").train()[mo - 1] + " " + y;
                case 3 -> WORDS.get("MONTH").train()[mo - 1] + " " + d + ", " + y;
                default -> String.format(Locale.ROOT, "%02d.%02d.%d", d, mo, y);
            };
        }

        private String amount() {
            int whole = 1 + rnd.nextInt(rnd.nextBoolean() ? 999 : 99999);
            int cents = rnd.nextInt(100);
            return switch (rnd.nextInt(4)) {
                case 0 -> String.format(Locale.ROOT, "$%,d.%02d", whole, cents);
                case 1 -> String.format(Locale.ROOT, "€ %d,%02d", whole, cents);
                case 2 -> String.format(Locale.ROOT, "%d.%02d EUR", whole, cents);
                default -> String.format(Locale.ROOT, "£%d", whole);
            };
        }
    }
}
