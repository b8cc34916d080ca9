package dev.cloakgate.tools;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Given and family names for cultures Datafaker 2.7.0 has no list for (issue 14): Icelandic (patronymics built
 * from the father's name, -son / -dóttir), Māori, and Arabic names as they are written in Latin script. Written for
 * this project from common names of each culture (no external list was copied); same licence as the project.
 * Names quoted in the issue or used in the project's evaluation set are deliberately not in these lists.
 */
final class PersonNameLists {

    private PersonNameLists() {
    }

    /** {female given, male given, family (or patronymic stems)} per locale tag. */
    private static final Map<String, String[][]> LISTS = Map.of(
        "is", new String[][] {
            words("Sigríður Anna Guðrún Kristín Margrét Helga Sigrún Ingibjörg Jóhanna Katrín Ragnheiður Hildur"
                + " Þórunn Ásdís Bryndís Halldóra Auður Sólveig Hrafnhildur Arndís Steinunn Þóra Eydís Védís Björk"
                + " Ólöf Unnur Svanhildur Ásta Dagný Elísabet Erla Hulda Ingunn Lilja Rakel Sunna Tinna Vigdís"),
            words("Jón Sigurður Gunnar Ólafur Einar Kristján Magnús Stefán Jóhann Björn Árni Helgi Páll Ragnar"
                + " Þórður Hallgrímur Snorri Egill Halldór Haraldur Kjartan Ásgeir Þorsteinn Bjarni Hörður Eiður Ari"
                + " Baldur Davíð Finnur Grímur Hannes Ingólfur Jónas Leifur Óskar Skúli Tryggvi Valur Ævar"),
            // genitive stems of fathers' names: Jóns+son, Helga+dóttir
            words("Jóns Sigurðar Gunnars Ólafs Einars Kristjáns Magnús Stefáns Jóhanns Björns Árna Helga Páls"
                + " Ragnars Þórðar Hallgríms Snorra Egils Halldórs Haralds Kjartans Ásgeirs Þorsteins Bjarna Harðar"
                + " Arnar Baldurs Þórs Davíðs Finns Gríms Hannesar Ingólfs Jónasar Leifs Óskars Skúla Tryggva Vals")},
        "mi", new String[][] {
            words("Mere Anahera Kahurangi Ngaio Hine Moana Hana Kiri Mereana Tui Awhina Huia Keri Maraea Ataahua"
                + " Hinemoa Kōwhai Marama Ngārangi Pania Rāhera Tāwhiri Waimarie Whetu Miriama Rongo Tia"),
            words("Hemi Wiremu Tama Rangi Nikau Manaia Tāne Ariki Hōhepa Rāwiri Tamati Pita Ihaia Nikora Paora"
                + " Mikaere Hēmi Kauri Matiu Rēweti Tipene Wairangi Whetū Māui Kahu Tūtaki Hōri Apirana"),
            words("Ngata Parata Tipene Te_Whata Tuhiwai Horomona Rangihau Kereama Paewai Pōmare Te_Rangi Whaanga"
                + " Tamihana Hohaia Ruatapu Mahuika Te_Kani Karaka Turei Heke Potae Waaka Rewi Ranginui Tautahi"
                + " Te_Hira Hēnare Kingi Tomoana Pōtaka Rāwiri Wīhongi Tūhoe Huata Māhina")},
        "ar-Latn", new String[][] {
            words("Fatima Aisha Layla Amira Nour Rania Hala Salma Yasmin Mariam Huda Dina Reem Leila Zainab Samira"
                + " Lubna Nadia Ghada Basma Hiba Jamila Khadija Lina Malak Rasha Sana Widad Yara Zahra Soumaya"),
            words("Mohammed Ahmed Youssef Omar Khalid Tariq Karim Samir Hamza Bilal Rami Ziad Hassan Ibrahim"
                + " Mustafa Adel Anas Ayman Faisal Hicham Issam Jamal Mahmoud Nabil Othman Rachid Walid Yassine"),
            words("Al-Masri El-Sayed Haddad Khoury Mansour Nasser Saleh Abdullah Rahman Farouk Bakr Hamdan Qasim"
                + " Aziz Al-Rashid Al-Amin Benali El_Amrani Bouzid Jaber Karam Nassar Odeh Sabbagh Shami Suleiman"
                + " Tahan Zaki Yousef Al-Hashimi Ben_Youssef El_Idrissi Bennani Tazi Chraibi Alaoui Belhaj Darwish"
                + " Haddadin Najjar Sayegh Ghanem Hijazi")});

    private static String[] words(String s) {
        String[] w = s.trim().split("\\s+");
        for (int i = 0; i < w.length; i++) {
            w[i] = w[i].replace('_', ' '); // "Te_Whata" is one family name of two words
        }
        return w;
    }

    /** {given, family} for a new person of {@code locale}. */
    static String[] person(String locale, boolean female, Random rnd) {
        String[][] l = LISTS.get(locale);
        if (l == null) {
            throw new IllegalArgumentException("no hand-written names for " + locale);
        }
        String given = female ? pick(l[0], rnd) : pick(l[1], rnd);
        String family = pick(l[2], rnd);
        if (locale.equals("is")) {
            family = family + (female ? "dóttir" : "son");
        }
        return new String[] { given, family };
    }

    /** Every name of {@code locale} as it appears in text (patronymics in both forms), for the dictionary. */
    static List<String> all(String locale) {
        String[][] l = LISTS.get(locale);
        List<String> out = new ArrayList<>(List.of(l[0]));
        out.addAll(List.of(l[1]));
        for (String f : l[2]) {
            if (locale.equals("is")) {
                out.add(f + "son");
                out.add(f + "dóttir");
            } else {
                out.add(f);
            }
        }
        return out;
    }

    private static String pick(String[] a, Random rnd) {
        return a[rnd.nextInt(a.length)];
    }
}
