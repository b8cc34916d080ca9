package dev.cloakgate.policy.control;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads French, Spanish, German and Chinese words as the English words the grammar knows (issue 13): a token's
 * compared word becomes its gloss ({@code ignorez} reads "ignore", {@code Passwörter} "passwords", {@code 密码}
 * "password"), its raw form stays. The shapes then apply unchanged, because an injection's grammar is the same
 * across these languages: an imperative at the head of a clause, an object after it. Chinese has no spaces, so a
 * run of Han characters is cut by longest match against the glossary (unknown characters become one-character
 * tokens), and the 把/将 construction, which puts the object before the verb, is read in English order. A few
 * multi-word phrases ("mot de passe", "por favor", "ab jetzt") are joined at the end of a sentence.
 *
 * <p>This is a glossary of the words the shapes need, not a translator: it covers imperatives of overriding,
 * revealing, sending, changing role and acting on someone's behalf, their objects and the politeness around them.
 * Words that are also common English words are left alone ("a", "an", "die", "come"), so English text reads as
 * before. Every lookup is one hash probe; a Han run is cut in time linear in its length times {@link #CJK_MAX}.
 */
final class Gloss {
    private Gloss() {
    }

    /** Longest glossary entry in Han characters. */
    private static final int CJK_MAX = 6;
    /** A verb entry of the Chinese glossary ends the object of 把/将. */
    private static final char VERB = '!';
    /** Chinese prepositional phrases that stand before their verb: held back like the object of 把. */
    private static final java.util.Set<String> HOLDERS = java.util.Set.of("从", "用", "帮我", "替我");
    /** How many tokens 把/将 may hold back before its verb; more and the text is read as written. */
    private static final int BA_MAX = 10;

    private static final Map<String, String[]> WORDS = new HashMap<>();
    private static final Map<String, String> HAN = new HashMap<>();
    /** Multi-word phrases by their first word: the rest of the phrase, then what the whole reads as. */
    private static final Map<String, List<String[][]>> PHRASES = new HashMap<>();
    private static final int MAX_WORD;

    private static void w(String gloss, String... words) {
        String[] g = gloss.split(" ");
        for (String w : words) {
            WORDS.put(w, g);
        }
    }

    private static void han(String gloss, String... words) {
        for (String w : words) {
            HAN.put(w, gloss);
        }
    }

    private static void phrase(String gloss, String... phrases) {
        for (String p : phrases) {
            String[] parts = p.split(" ");
            String[] rest = new String[parts.length - 1];
            System.arraycopy(parts, 1, rest, 0, rest.length);
            PHRASES.computeIfAbsent(parts[0], k -> new ArrayList<>()).add(new String[][] {rest, gloss.split(" ")});
        }
    }

    static {
        // --- override -----------------------------------------------------------------------------------------
        w("ignore", "ignorez", "ignorer", "ignores", "ignorons", "ignora", "ignoren", "ignorad", "ignorar", "ignoriere",
                "ignorieren", "ignorier", "ignoriert", "ignoré", "ignorée", "ignorées", "ignorés");
        w("disregard", "négligez", "néglige", "omettez", "missachte", "missachten", "überspringe");
        w("forget", "oubliez", "oublie", "oublier", "olvida", "olvide", "olviden", "olvidad", "olvidar", "olvídate",
                "olvídese", "vergiss", "vergessen", "vergesst");
        w("override", "outrepassez", "contournez", "anula", "anule", "überschreibe", "umgehe", "umgehen");
        w("instructions", "consignes", "directives", "instrucciones", "indicaciones", "órdenes", "anweisungen",
                "instruktionen", "befehle", "vorgaben", "anordnungen", "regeln", "règles", "reglas", "richtlinien");
        w("instruction", "consigne", "instrucción", "anweisung", "regel", "règle", "regla", "befehl");
        w("previous", "précédentes", "précédents", "précédente", "précédent", "antérieures", "antérieurs",
                "antérieure", "anteriores", "anterior", "previas", "previos", "previa", "vorherigen", "vorherige",
                "vorigen", "bisherigen", "früheren", "obigen", "vorangegangenen");
        w("all", "toutes", "tous", "toute", "todas", "todos", "toda", "alle", "allen", "aller", "sämtliche",
                "sämtlichen");
        w("everything", "tout", "alles");
        w("system", "système", "sistema");
        w("system_prompt", "systemprompt", "systemanweisungen", "systemnachricht");
        w("prompt", "eingabeaufforderung");
        // --- reveal -------------------------------------------------------------------------------------------
        w("reveal", "révélez", "révèle", "révéler", "revela", "revele", "revelar", "enthülle", "verrate", "verraten");
        w("show", "montrez", "montre", "montrer", "affichez", "affiche", "afficher", "muestra", "muestre", "mostrar",
                "enseña", "zeige", "zeig", "zeigen");
        w("show me", "muéstrame", "montre-moi", "montrez-moi");
        w("print", "imprime", "imprimez", "imprima", "drucke");
        w("repeat", "répétez", "répète", "repite", "repita", "wiederhole", "wiederholen");
        w("tell", "dites", "dis", "di", "diga", "sag", "sagen", "erzähle", "nenne", "nennen");
        w("tell me", "dime", "dígame", "dis-moi", "dites-moi", "sag mir");
        w("write", "écrivez", "écris", "escribe", "escriba", "schreibe", "schreib");
        w("give", "donnez", "donne", "donner", "da", "dale", "dé", "gib", "gebe", "geben", "erteile", "erteilen");
        // --- send, move, act ----------------------------------------------------------------------------------
        w("send", "envoyez", "envoie", "envoyer", "envoies", "expédiez", "envía", "envia", "envíe", "envie",
                "enviar", "envíen", "mande", "manda", "mandar", "sende", "senden", "schicke", "schicken", "schick",
                "sendet", "verschicke", "übermittle", "übermitteln");
        w("send me", "envoie-moi", "envoyez-moi", "envíame", "mándame");
        w("forward", "transférez", "transfère", "transférer", "réexpédiez", "reenvía", "reenvíe", "reenviar",
                "leite", "weiterleiten", "leiten");
        w("transfer", "virez", "vire", "virer", "transfiere", "transfiera", "transferir", "überweise", "überweisen",
                "überweist", "transferiere", "transferieren");
        w("pay", "payez", "paie", "payer", "paga", "pague", "pagar", "bezahle", "bezahlen", "zahle", "zahlen");
        w("email", "courriel", "correo");
        w("share", "partagez", "partage", "partager", "comparte", "comparta", "compartir", "teile", "teilen");
        w("upload", "téléversez", "téléverse", "sube", "suba", "hochladen");
        w("post", "publiez", "publie", "publier", "publica", "publique", "publicar", "veröffentliche", "poste");
        w("grant", "accordez", "accorde", "accorder", "octroyez", "otorga", "otorgue", "concede", "conceda",
                "gewähre", "gewähren");
        w("add", "ajoutez", "ajoute", "ajouter", "añade", "añada", "agrega", "agregue", "füge", "hinzufügen");
        w("invite", "invitez", "invita");
        w("delete", "supprimez", "supprime", "supprimer", "effacez", "efface", "borra", "borre", "borrar",
                "elimina", "elimine", "eliminar", "lösche", "löschen", "lösch", "entferne", "entfernen");
        w("cancel", "annulez", "annule", "annuler", "cancela", "cancele", "storniere", "kündige");
        w("sell", "vendez", "vends", "vendre", "vende", "venda", "vender", "verkaufe", "verkaufen", "verkauf");
        w("buy", "achetez", "achète", "acheter", "compra", "compre", "comprar", "kaufe", "kaufen", "kauf");
        w("disable", "désactivez", "désactive", "désactiver", "desactiva", "desactive", "desactivar",
                "deaktiviere", "deaktivieren");
        w("turn", "schalte", "schalten");
        w("off", "aus", "ab");
        w("unlock", "déverrouillez", "déverrouille", "desbloquea", "desbloquee", "entsperre", "entriegle");
        w("change", "changez", "change", "modifiez", "modifie", "cambia", "cambie", "modifica", "modifique",
                "ändere", "ändern", "änderst");
        w("reset", "réinitialisez", "réinitialise", "restablece", "restablezca");
        w("set", "setze", "setzen");
        w("install", "installez", "installe", "instala", "instale", "installiere", "installieren");
        w("run", "exécutez", "exécute", "ejecuta", "ejecute", "führe", "ausführen");
        w("open", "ouvrez", "ouvre", "abre", "abra", "öffne", "öffnen");
        w("act", "agis", "agissez", "actúa", "actúe", "agiere", "verhalte");
        w("pretend", "prétends", "prétendez", "finge", "finja", "simula");
        w("roleplay", "incarne", "incarnez", "interpreta", "spiele");
        w("become", "deviens", "devenez", "conviértete", "werde");
        // --- addressees, possessives, objects -----------------------------------------------------------------
        w("a", "un", "une", "una", "ein", "eine", "einen", "einem", "einer");
        w("hello", "bonjour", "salut", "hola", "hallo", "servus", "moin");
        w("please", "veuillez", "svp", "stp", "bitte", "porfa");
        w("my", "mon", "ma", "mes", "mi", "mis", "mein", "meine", "meinen", "meinem", "meiner", "meines");
        w("our", "notre", "nuestro", "nuestra", "nuestros", "nuestras", "unser", "unsere", "unseren",
                "unserem", "unserer");
        w("your", "tu", "votre", "vos", "ta", "tes", "tus", "su", "sus", "dein", "deine", "deinen", "deinem",
                "deiner", "deines", "ihre", "ihren", "ihrem");
        w("you", "vous", "usted", "ustedes", "du", "dich", "dir", "euch");
        w("me", "moi", "mir", "mich");
        w("are", "êtes", "eres", "estás", "bist", "seid");
        w("must", "musst", "müssen", "muss", "müsst", "sollst", "sollen", "solltest");
        w("now", "maintenant", "désormais", "ahora", "jetzt", "nun");
        w("and", "et", "y", "und", "puis", "luego", "dann", "danach");
        w("the", "le", "la", "les", "l'", "el", "los", "las", "der", "das", "den", "dem", "des");
        w("of", "de", "del", "von", "vom");
        w("to", "à", "al", "au", "aux", "zu", "zum", "zur", "auf", "nach");
        w("not", "pas", "ne", "nicht");
        w("never", "nunca", "jamais", "niemals");
        w("password", "contraseña", "clave", "passwort", "kennwort", "motdepasse");
        w("passwords", "contraseñas", "claves", "passwörter", "kennwörter");
        w("account", "compte", "cuenta", "konto");
        w("accounts", "comptes", "cuentas", "konten");
        w("files", "fichiers", "archivos", "dateien");
        w("file", "fichier", "archivo", "datei");
        w("documents", "dokumente", "documentos");
        w("emails", "courriels", "correos", "e-mails", "mails", "nachrichten");
        w("messages", "mensajes");
        w("data", "données", "datos", "daten");
        w("access", "accès", "acceso", "zugriff", "zugang", "zugriffsrechte");
        w("friend", "ami", "amie", "amigo", "amiga", "freund", "freundin");
        w("user", "utilisateur", "usuario", "benutzer", "nutzer");
        w("secret", "secreto", "geheim", "geheimnis");
        w("money", "argent", "dinero", "geld");
        w("units", "unités", "unidades", "einheiten");
        w("bitcoin", "bitcoins");
                w("dollars", "dólares");
        w("restrictions", "restricciones", "einschränkungen", "beschränkungen");
        w("unrestricted", "illimité", "ilimitado", "uneingeschränkt", "uneingeschränkte", "uneingeschränkter");
        w("assistant", "asistente", "assistent");
        w("model", "modelo", "modell", "modèle");
        w("from", "desde");
        w("with", "avec", "con", "mit");
        w("immediately", "immédiatement", "inmediatamente", "sofort");
        w("without", "sans", "ohne");
        w("tell", "informe", "informes", "informez");
        phrase("password", "mot de passe");
        phrase("passwords", "mots de passe");
        phrase("please", "s'il vous plaît", "s'il te plaît", "por favor");
        phrase("system_prompt", "prompt système", "invite système", "instructions système", "consignes système",
                "prompt del sistema", "instrucciones del sistema", "mensaje del sistema");
        phrase("from now on", "à partir de maintenant", "a partir de ahora", "de ahora en adelante", "ab jetzt",
                "von nun an", "ab sofort");
        phrase("you are now", "ahora eres", "ahora tú eres", "tu es maintenant", "tu es désormais");
        phrase("you are", "tu es", "tú eres");
        phrase("you must", "tu dois", "tú debes", "du musst", "vous devez", "usted debe");
        phrase("pretend", "fais semblant", "faites semblant", "tu so", "tue so");
        phrase("act as", "haz como", "agis comme", "agissez comme", "actúa como", "verhalte dich wie", "handle als",
                "agiere als");
        phrase("send me", "envoie moi", "schick mir", "sende mir");
        phrase("please", "merci de", "merci d'", "je vous prie de", "te pido que", "le pido que");
        phrase("remember to", "n'oublie pas de", "n'oubliez pas de", "n'oublie pas", "n'oubliez pas", "pense à",
                "pensez à", "no olvides",
                "no olvide", "recuerda", "recuerde", "vergiss nicht", "denk daran", "denke daran");
        phrase("could you", "pourriez-vous", "pourrais-tu", "podrías", "könntest du", "könnten sie",
                "würdest du", "würden sie");
        phrase("can you", "pouvez-vous", "peux-tu", "puedes", "puede usted", "kannst du", "können sie");
        phrase("show me", "zeig mir", "zeige mir");
        phrase("disregard", "haz caso omiso", "hagas caso omiso");

        // --- more actions, their objects and who is asked (issue 13, second round) -------------------------------
        w("export", "exportez", "exporte", "exporta", "exportar", "exporten", "exportiere",
                "exportieren", "exportiert");
        w("renew", "renouvelez", "renouvelle", "renouveler", "renueva", "renueve", "renovar", "verlängere",
                "verlängern");
        w("subscribe", "abonnez", "abonne", "abonner", "souscrivez", "souscris", "souscrire", "suscribe",
                "suscriba", "suscribir", "abonniere", "abonnieren");
        w("book", "réservez", "réserve", "réserver", "reserva", "reservar", "reserviere",
                "reservieren");
        w("order", "commandez", "commande", "pide", "pida", "pedir", "encarga", "encargue", "encargar", "ordena",
                "bestelle", "bestellen");
        w("refund", "remboursez", "rembourse", "rembourser", "reembolsa", "reembolse", "reembolsar", "erstatte",
                "erstatten", "rückerstatten");
        w("approve", "approuvez", "approuve", "approuver", "validez", "valide", "valider", "aprueba", "apruebe",
                "aprobar", "genehmige", "genehmigen");
        w("confirm", "confirmez", "confirme", "confirmer", "confirma", "confirmar", "bestätige", "bestätigen");
        w("update", "actualiza", "actualice", "actualizar", "aktualisiere", "aktualisieren");
        // words that are English too and mean something else there ("quite", "pour", "mover") are left out
        w("move", "déplacez", "déplace", "déplacer", "mueve", "mueva", "verschiebe", "verschieben");
        w("archive", "archivez", "archiver", "archiva", "archivar", "archiviere", "archivieren");
        w("merge", "fusionnez", "fusionne", "fusionner", "fusiona", "fusione", "fusionar");
        w("complete", "finalisez", "finaliser", "complétez", "complète", "compléter", "completa", "completar",
                "finaliza", "finalice", "finalizar", "abschließen");
        w("charge", "débitez", "débite", "débiter", "cobre", "cobrar", "belaste", "belasten");
        w("enable", "activez", "activer", "activa", "activar", "aktiviere", "aktivieren");
        w("remove", "enlevez", "enlève", "enlever", "quita", "quitar");
        w("sign", "signez", "signer", "firme", "firmar", "unterschreibe", "unterschreiben");
        w("accept", "acceptez", "accepte", "accepter", "acepta", "acepte", "aceptar", "akzeptiere", "akzeptieren");
        w("reply", "répondez", "réponds", "répondre", "responde", "responda", "responder", "antworte", "antworten");
        w("create", "créez", "crée", "créer", "crea", "cree", "crear", "erstelle", "erstellen");
        w("block", "bloquez", "bloquer", "bloquea", "bloquee", "bloquear", "blockiere", "blockieren");
        w("disable", "éteignez", "éteins", "éteindre", "apaga", "apague", "apagar");
        w("unlock", "déverrouiller", "desbloquear", "entsperren", "entriegeln", "öffnet");
        w("reset", "réinitialiser", "restablecer", "resetea", "resetear", "zurücksetzen", "zurücksetze");
        w("change", "changer", "modifier", "cambiar", "modificar");
        w("cancel", "cancelar", "stornieren", "kündigen");
        w("forward", "transmettez", "transmets", "transmettre");
        w("upload", "téléverser", "subir");
        w("install", "installer", "instalar");
        w("run", "exécuter", "ejecutar", "lancez", "lancer");
        w("invite", "inviter", "invitar", "einladen");
        w("delete", "löscht", "borren", "eliminen");
        w("add", "añadir", "agregar", "ajouter");
        w("send", "envoyez-lui", "envía", "envíes");
        w("send it", "envoyez-le", "envoie-le", "envoyez-la", "envoie-la", "envíalo", "envíala", "envíelo", "envíela");
        w("send them", "envoyez-les", "envoie-les", "envíalos", "envíalas", "envíelos");
        w("forward it", "transférez-le", "transfère-le", "reenvíalo", "reenvíelo");
        w("post it", "publiez-le", "publie-le", "publiez-la", "publie-la", "publícalo", "publícala", "publíquelo",
                "publíquela");
        w("card", "carte", "tarjeta", "karte");
        w("credit card", "kreditkarte");
        w("company card", "firmenkarte");
        w("invoice", "facture", "factura", "rechnung");
        w("invoices", "factures", "facturas", "rechnungen");
        w("payment", "paiement", "pago", "zahlung");
        w("balance", "solde", "saldo", "kontostand");
        w("savings", "épargne", "ahorros", "ersparnisse");
        w("savings account", "sparkonto");
        w("checking account", "girokonto");
        w("shares", "acciones", "aktien");
        w("portfolio", "portefeuille", "cartera");
        w("passport", "passeport", "pasaporte", "reisepass");
        w("passport copy", "passkopie");
        w("contract", "contrat", "contrato", "vertrag");
        w("salary", "salaire", "salario", "sueldo", "gehalt");
        w("payroll", "nómina", "nóminas", "gehaltsabrechnung", "gehaltsabrechnungen", "lohnabrechnung",
                "lohnabrechnungen");
        w("code", "código");
        w("codes", "códigos");
        w("contacts", "contactos", "kontakte");
        w("address", "adresse", "dirección");
        w("statements", "relevés", "extractos", "kontoauszüge");
        w("customers", "clientes", "kunden");
        w("customer list", "kundenliste");
        w("list", "liste", "lista");
        w("owner", "propriétaire", "propietario", "eigentümer", "inhaber");
        w("admin", "administrateur", "administrador");
        w("alarm", "alarme", "alarma", "alarmanlage");
        w("door", "porte", "puerta", "tür", "haustür");
        w("lock", "serrure", "cerradura", "schloss");
        w("cameras", "caméras", "cámaras", "kameras");
        w("folder", "dossier", "carpeta", "ordner");
        w("repository", "dépôt", "repositorio");
        w("beneficiary", "bénéficiaire", "beneficiario");
        w("payee", "zahlungsempfänger");
        w("2fa", "zwei-faktor-authentifizierung");
        w("ai", "ia", "ki");
        w("agent", "agente");
        w("agents", "agentes", "agenten");
        w("assistants", "asistentes", "assistenten");
        w("ai assistant", "ki-assistent", "ki-assistenten", "ki-assistentin");
        w("ai agents", "ki-agent", "ki-agenten");
        w("someone", "quelqu'un", "alguien", "jemand");
        w("could", "pourrait", "pourrait-il", "pourrait-elle", "podría", "könnte");
        w("can", "peut-il", "peut-elle", "pueda");
        phrase("could you", "tu pourrais", "vous pourriez", "tu podrías", "du könntest");
        w("for", "para", "für");
        w("message", "mensaje", "nachricht");
        w("note", "notiz");
        w("as", "comme", "como", "als");
        w("paste", "collez", "colle", "coller", "pega", "pegue", "pegar", "einfügen");
        w("new", "nouveau", "nouvel", "nouvelle", "nuevo", "nueva", "neues", "neuen", "neue");
        w("into", "dans", "en");
        w("contents", "contenu", "contenido", "inhalt");
        // what frames a quotation or names the attack it quotes ("Exemple réel : « assistant, transfère ... »")
        w("example", "exemple", "ejemplo", "beispiel");
        w("examples", "exemples", "ejemplos", "beispiele");
        w("said", "disait", "dijo", "decía", "sagte", "lautete", "hieß");
        w("wrote", "écrivait", "escribió", "schrieb");
        w("phishing", "hameçonnage", "hameçonnages");
        w("scam", "arnaque", "escroquerie", "fraude", "estafa", "betrug", "betrugsversuch");
        w("injection", "inyección", "einschleusung");
        w("attacker", "attaquant", "atacante", "angreifer");
        w("attackers", "attaquants", "atacantes");
        w("malicious", "malveillant", "malveillante", "malicioso", "maliciosa", "bösartig", "bösartige");
        phrase("for example", "par exemple", "por ejemplo", "zum beispiel");
        w("do it", "hazlo", "hágalo", "hacedlo", "fais-le", "faites-le", "erledigen", "erledige");
        phrase("do it", "mach das", "mach es", "macht das", "erledige das");
        phrase("would it be possible to", "serait-il possible de", "serait-il possible d'", "sería posible",
                "wäre es möglich ,", "wäre es möglich");
        phrase("is it possible to", "est-il possible de", "est-il possible d'");
        phrase("remember to", "vergiss nicht ,", "denk daran ,", "denke daran ,");
        phrase("update", "mettez à jour", "mets à jour", "mettre à jour");
        phrase("saved card", "carte enregistrée", "tarjeta guardada", "gespeicherte karte", "gespeicherten karte");
        phrase("credit card", "carte bancaire", "carte de crédit", "tarjeta de crédito");
        phrase("company card", "carte de l'entreprise", "carte de la société", "tarjeta de la empresa");
        phrase("checking account", "compte courant", "cuenta corriente");
        phrase("payroll", "fiches de paie", "bulletins de paie");
        phrase("2fa", "double authentification", "authentification à deux facteurs", "verificación en dos pasos",
                "autenticación en dos pasos");
        phrase("for me", "pour moi", "por mí", "für mich");

        // --- Chinese --------------------------------------------------------------------------------------------
        han("!ignore", "忽略", "无视", "忽视", "不要理会", "不理会", "别管");
        han("!forget", "忘记", "忘掉");
        han("!override", "覆盖", "绕过");
        han("previous", "之前", "以前", "先前", "此前", "上面", "上述", "前面", "早先", "原来", "原有");
        han("all", "所有", "全部", "一切", "全体", "所有的");
        han("instructions", "指令", "指示", "说明", "规则", "命令", "要求", "设定");
        han("system prompt", "系统提示", "系统提示词", "系统指令", "系统消息", "系统设定");
        han("prompt", "提示词", "提示");
        han("initial", "初始", "原始");
        han("!show", "显示", "展示", "给我看");
        han("!reveal", "泄露", "透露", "公开");
        han("!output", "输出", "打印");
        han("!repeat", "重复", "复述");
        han("!tell me", "告诉我");
        han("!send me", "发给我", "寄给我");
        han("!forward me", "转发给我");
        han("!give me", "给我");
        han("!paste", "贴到", "粘贴到", "粘贴", "贴");
        han("issue", "issue");
        han("new", "新");
        han("!tell", "告诉", "通知", "告知");
        han("!send", "发送", "发给", "寄给", "寄送", "发", "寄");
        han("!forward", "转发");
        han("!transfer", "转账", "转", "汇款", "汇");
        han("!pay", "支付", "付款", "付");
        han("!upload", "上传");
        han("!share", "分享", "共享");
        han("!post", "发布", "发帖");
        han("!grant", "授予", "给予", "赋予", "授权");
        han("!give", "给");
        han("!add", "添加", "加入");
        han("!invite", "邀请");
        han("!delete", "删除", "删掉", "清除", "清空", "移除");
        han("!cancel", "取消");
        han("!sell", "卖出", "出售", "卖掉", "卖");
        han("!buy", "购买", "买入", "买");
        han("!disable", "禁用", "关闭", "停用");
        han("!unlock", "解锁", "打开");
        han("!change", "更改", "修改", "改变", "更换", "改成", "改为");
        han("!reset", "重置");
        han("!install", "安装");
        han("!run", "运行", "执行");
        han("!roleplay", "扮演");
        han("!pretend", "假装");
        han("!become", "成为", "变成");
        han("!act as", "充当");
        han("please", "请", "麻烦", "务必");
        han("now", "现在", "立即", "马上", "立刻");
        han("from now on", "从现在开始", "从现在起", "今后");
        han("you are now", "你现在是", "你现在就是", "您现在是");
        han("you are", "你是", "您是");
        han("you", "你", "您");
        han("your", "你的", "您的", "你们的", "您们的");
        han("you", "你们");
        han("will", "会", "将会", "打算");
        han("meeting", "会议", "开会");
        han("member", "会员");
        han("chance", "机会");
        han("accounting", "会计");
        han("session", "会话");
        han("party", "聚会");
        han("my", "我的", "我");
        han("our", "我们的", "我们");
        han("i need you to", "我需要你", "我要你");
        han("can you", "你能", "您能", "你可以", "您可以", "能否", "可否", "能不能", "麻烦你", "麻烦您");
        han("remember to", "记得", "别忘了", "不要忘记");
        han("do not", "不要", "别", "请勿", "切勿");
        han("not", "不", "没");
        han("to", "到", "至", "向");
        han("and", "并", "然后", "并且", "和", "再");
        han("this", "这件事", "这个", "此事");
        han("user", "用户", "使用者");
        han("password", "密码", "口令");
        han("account", "账户", "帐户", "账号", "帐号");
        han("bank", "银行");
        han("files", "文件");
        han("emails", "邮件", "电子邮件", "邮箱");
        han("data", "数据", "资料");
        han("messages", "消息", "信息");
        han("access", "访问权限", "权限", "访问");
        han("admin", "管理员");
        han("guest", "访客");
        han("friend", "朋友");
        han("permanent", "永久");
        han("dollars", "美元");
        han("euros", "欧元");
        han("yuan", "元", "人民币");
        han("bitcoin", "比特币");
        han("stocks", "股票");
        han("units", "单位", "个");
        han("unrestricted", "没有限制", "不受限制", "无限制", "无约束");
        han("restrictions", "限制", "约束");
        han("ai", "人工智能", "ai");
        han("assistant", "助手", "助理");
        han("model", "模型");
        han("security", "安全");
        han("alarm", "警报", "报警器");
        han("without", "不经", "无需");
        han("secret", "秘密");
        han("do it", "照做", "照办");
        han("example", "例如", "比如", "样例", "示例", "例子", "范例");
        han("wrote", "写道");
        han("reads", "写着");
        han("scam", "诈骗", "骗局");
        han("phishing", "钓鱼");
        han("injection", "注入");
        han("attacker", "攻击者");
        han("!export", "导出");
        han("!renew", "续订", "续费");
        han("!order", "订购", "下单");
        han("!book", "预订", "预定");
        han("!refund", "退款");
        han("!approve", "批准");
        han("!confirm", "确认");
        han("!update", "更新");
        han("!move", "移动");
        han("!enable", "启用", "开启");
        han("!create", "创建");
        han("!sign", "签署");
        han("!accept", "接受");
        han("!reply", "回复");
        han("!subscribe", "订阅");
        han("!merge", "合并");
        han("!complete", "完成");
        han("!block", "屏蔽", "拉黑");
        han("!charge", "扣款");
        han("!withdraw", "提现", "取款");
        han("credit card", "信用卡");
        han("payee account", "收款账户", "收款帐户");
        han("payee", "收款人");
        han("invoice", "发票", "账单");
        han("address", "地址", "住址");
        han("phone", "电话");
        han("statements", "报表", "对账单", "财务报表");
        han("card", "银行卡", "卡");
        han("company", "公司");
        han("customer list", "客户名单", "客户列表");
        han("customers", "客户");
        han("contract", "合同");
        han("passport", "护照");
        han("payroll", "工资单", "工资");
        han("salary", "薪水", "薪资");
        han("owner", "所有者", "拥有者");
        han("repository", "仓库");
        han("folder", "文件夹");
        han("savings", "储蓄");
        han("2fa", "两步验证", "双重验证", "双因素认证");
        han("codes", "验证码");
        han("door", "前门", "门");
        han("lock", "门锁");
        han("cameras", "摄像头");
        han("someone", "有人");
        han("can", "能");
        han("agent", "代理", "智能体");
        han("all", "完整的", "完整");
        han("from", "从");
        han("with", "用");
        han("for me", "帮我", "替我");
        han("", "的", "中", "了", "吧", "呢", "啊", "把", "将");
        int max = 0;
        for (String k : WORDS.keySet()) {
            max = Math.max(max, k.length());
        }
        MAX_WORD = max;
    }

    /**
     * Short words that are also English abbreviations or names when capitalised ("Mon 12", "Al said", "Den
     * Haag"): glossed only as written in lower case, as they are inside a French, Spanish or German sentence.
     */
    private static final java.util.Set<String> LOWER_ONLY = java.util.Set.of("mon", "ma", "al", "di", "da", "den",
            "des", "ne", "pas", "ab", "con", "dis", "ta", "su");

    /** The English tokens a word ({@code w} lower-cased, {@code raw} as written) reads as, or null. */
    static String[] word(String w, String raw) {
        if (LOWER_ONLY.contains(w) && !raw.equals(w)) {
            return null;
        }
        return word(w);
    }

    /** The English tokens a lower-cased word reads as, or null when it is not in the glossary. */
    static String[] word(String w) {
        if (w.length() > MAX_WORD + 3) {
            return null;
        }
        String[] g = WORDS.get(w);
        if (g != null) {
            return g;
        }
        // French elision: "l'accès", "d'instructions", "n'envoyez"
        int apo = w.indexOf('\'');
        if (apo > 0 && apo <= 2 && apo + 1 < w.length()) {
            String rest = w.substring(apo + 1);
            String[] r = WORDS.get(rest);
            if (r == null && apo == 1 && (w.charAt(0) == 'l' || w.charAt(0) == 'd') && rest.length() > 2) {
                // "l'assistant", "d'alarme": the article or preposition elided onto a word read as it stands
                r = new String[] {rest};
            }
            if (r != null && w.startsWith("m'")) {
                // "m'envoyer": "send me"
                String[] me = java.util.Arrays.copyOf(r, r.length + 1);
                me[r.length] = "me";
                return me;
            }
            if (w.startsWith("n'")) {
                // "n'envoyez pas": the negation is what "don't" is to the English rules
                String[] neg = new String[(r == null ? 1 : r.length) + 1];
                neg[0] = "not";
                if (r == null) {
                    neg[1] = rest;
                } else {
                    System.arraycopy(r, 0, neg, 1, r.length);
                }
                return neg;
            }
            return r;
        }
        return null;
    }

    static boolean han(char c) {
        return Character.UnicodeScript.of(c) == Character.UnicodeScript.HAN;
    }

    /** Whether {@code s[a..b)} holds a Han character. */
    static boolean hasHan(String s, int a, int b) {
        for (int k = a; k < b; k++) {
            char c = s.charAt(k);
            if (c >= 0x2E80 && han(c)) {
                return true;
            }
        }
        return false;
    }

    /** A sink for the tokens of one run. */
    interface Sink {
        void add(String w, String raw, int pos);
    }

    /**
     * Cuts a run of word characters holding Han into tokens: longest glossary match first, a stretch of other
     * letters or digits as one word, anything else one character. Reads 把/将 + object + verb as verb + object.
     */
    static void cut(String s, int a, int b, Sink out) {
        List<Object[]> held = null;
        int k = a;
        while (k < b) {
            char c = s.charAt(k);
            if (!han(c)) {
                int st = k;
                while (k < b && !han(s.charAt(k))) {
                    k++;
                }
                held = emit(s.substring(st, k).toLowerCase(java.util.Locale.ROOT), s.substring(st, k), st, false,
                        held, out);
                continue;
            }
            String gloss = null;
            int len = Math.min(CJK_MAX, b - k);
            for (; len > 0; len--) {
                gloss = HAN.get(s.substring(k, k + len));
                if (gloss != null) {
                    break;
                }
            }
            if (gloss == null) {
                held = emit(String.valueOf(c), String.valueOf(c), k, false, held, out);
                k++;
                continue;
            }
            String raw = s.substring(k, k + len);
            if (raw.equals("把") || raw.equals("将")) {
                // a phrase already held before 把 ("用…把…", "从…把…") waits for the same verb
                held = held != null ? held : new ArrayList<>();
            } else if (HOLDERS.contains(raw)) {
                // "从储蓄账户转账2000元", "用保存的信用卡购买": a phrase before the verb, read after it as English puts it
                // (with what is already held: "帮我从…转账")
                held = held != null ? held : new ArrayList<>();
                for (String part : gloss.split(" ")) {
                    held.add(new Object[] {part, raw, k});
                }
            } else {
                boolean verb = !gloss.isEmpty() && gloss.charAt(0) == VERB;
                String g = verb ? gloss.substring(1) : gloss;
                for (String part : g.isEmpty() ? new String[0] : g.split(" ")) {
                    held = emit(part, raw, k, verb, held, out);
                    verb = false;
                }
            }
            k += len;
        }
        flush(held, out);
    }

    /** Passes a token on, or holds it back while 把/将 waits for its verb; returns what is still held. */
    private static List<Object[]> emit(String w, String raw, int pos, boolean verb, List<Object[]> held, Sink out) {
        if (held == null) {
            out.add(w, raw, pos);
            return null;
        }
        if (verb) {
            out.add(w, raw, pos);
            flush(held, out);
            return null;
        }
        held.add(new Object[] {w, raw, pos});
        if (held.size() > BA_MAX) {
            flush(held, out);
            return null;
        }
        return held;
    }

    private static void flush(List<Object[]> held, Sink out) {
        if (held != null) {
            for (Object[] h : held) {
                out.add((String) h[0], (String) h[1], (Integer) h[2]);
            }
            held.clear();
        }
    }

    /**
     * The tokens of {@code toks[from..n)} with their multi-word phrases joined ("mot de passe" reads "password",
     * "ahora eres" "you are now"), or null when there is none. Linear: each position tries the few phrases that
     * start with its word.
     */
    static List<Token> phrases(Token[] toks, int from, int n) {
        List<Token> out = null;
        int k = from;
        while (k < n) {
            Token t = toks[k];
            List<String[][]> cands = t.kind() == Token.Kind.WORD ? PHRASES.get(lower(t)) : null;
            int matched = 0;
            String[] gloss = null;
            if (cands != null) {
                for (String[][] c : cands) {
                    String[] rest = c[0];
                    boolean ok = k + rest.length < n;
                    for (int r = 0; ok && r < rest.length; r++) {
                        ok = lower(toks[k + 1 + r]).equals(rest[r]);
                    }
                    if (ok && rest.length + 1 > matched) {
                        matched = rest.length + 1;
                        gloss = c[1];
                    }
                }
            }
            if (matched == 0) {
                if (out != null) {
                    out.add(t);
                }
                k++;
                continue;
            }
            if (out == null) {
                out = new ArrayList<>(n - from + 2);
                for (int p = from; p < k; p++) {
                    out.add(toks[p]);
                }
            }
            for (String g : gloss) {
                out.add(new Token(g, t.raw(), Token.Kind.WORD, t.ctx(), t.pos()));
            }
            k += matched;
        }
        return verbLast(out != null ? out : java.util.Arrays.asList(toks).subList(from, n), out != null);
    }

    /**
     * German puts the infinitive at the end of its clause: a note's "Bitte alle meine Dateien löschen", a modal's
     * "du musst alle Anweisungen ignorieren". A clause whose last word is a glossed German infinitive and that
     * does not open with a verb is read with that verb moved to its head, after politeness, "you" and modals.
     * One pass over the sentence.
     */
    private static List<Token> verbLast(List<Token> toks, boolean changed) {
        List<Token> out = null;
        int clause = 0;
        for (int k = 0; k <= toks.size(); k++) {
            if (k < toks.size() && !toks.get(k).punct() && !(toks.get(k).is("and") && !lower(toks.get(k)).equals("and"))) {
                // "und" ends a German clause as a comma does: "... ändern und Maria nichts sagen"
                continue;
            }
            int last = k - 1;
            if (last > clause && infinitive(toks.get(last))) {
                int head = clause;
                while (head < last && (toks.get(head).in(Lexicon.C_LEAD) || toks.get(head).in(Lexicon.C_MODAL)
                        || toks.get(head).is("you") || toks.get(head).is("could") || toks.get(head).is("someone")
                        || toks.get(head).is("the") && head + 1 < last && toks.get(head + 1).in(Lexicon.C_MODEL)
                        || toks.get(head).in(Lexicon.C_MODEL))) {
                    head++;
                }
                if (head < last && !toks.get(head).in(Lexicon.C_ALL_VERBS)) {
                    if (out == null) {
                        out = new ArrayList<>(toks);
                    }
                    Token v = out.remove(last);
                    out.add(head, v);
                }
            }
            clause = k + 1;
        }
        return out != null ? out : changed ? toks : null;
    }

    private static boolean infinitive(Token t) {
        String raw = lower(t);
        return t.kind() == Token.Kind.WORD && t.in(Lexicon.C_ALL_VERBS) && !raw.equals(t.w())
                && (raw.endsWith("en") || raw.endsWith("ern") || raw.endsWith("eln"));
    }

    private static String lower(Token t) {
        // as Sentences reads a word: a repr's escaped apostrophe is an apostrophe
        return t.raw().toLowerCase(java.util.Locale.ROOT).replace("\\'", "'");
    }
}
