"""German document of the hybrid corpus (format: bench/hybrid_corpus.py): the general terms of a
household contents insurance (Hausratversicherung), paragraphs § 1 ... with numbered clauses,
definitions, cross-references and an annex of tables.

Target passages and their questions were written together, before any ranking was run. The
generated clauses never state the limits, periods and conditions that the targets state.
"""

from __future__ import annotations

from bench.hybrid_corpus import DocSpec, TableSpec

TARGETS = """
@ 2 | Fahrräder
Für Fahrräder besteht Versicherungsschutz gegen Diebstahl nur, wenn das Fahrrad zur Zeit des Diebstahls
durch ein verkehrsübliches Schloss gesichert war. Wurde das Fahrrad zwischen 22 Uhr und 6 Uhr gestohlen,
wird nur geleistet, wenn es in einem verschlossenen Raum, etwa einem Keller oder einer Garage, abgestellt
war oder zur Zeit des Diebstahls in Gebrauch war. Die Entschädigung ist je Versicherungsfall auf 1 Prozent
der Versicherungssumme begrenzt, höchstens 3.000 Euro.
p: ist mein rad versichert wenn es nachts vor dem haus geklaut wird => zwischen 22 Uhr und 6 Uhr
k: verkehrsübliches Schloss Fahrrad Keller
---
@ 4 | Unterversicherungsverzicht
Der Versicherer nimmt keinen Abzug wegen Unterversicherung vor, wenn die vereinbarte Versicherungssumme
bei Eintritt des Versicherungsfalls mindestens 650 Euro je Quadratmeter Wohnfläche beträgt und die
Wohnfläche im Versicherungsschein zutreffend angegeben ist. Hat der Versicherungsnehmer die Wohnfläche
zu niedrig angegeben, gilt der Verzicht nicht; die Entschädigung wird dann im Verhältnis der angegebenen
zur tatsächlichen Wohnfläche gekürzt.
p: wie verhindere ich, dass die versicherung kürzt weil meine sachen mehr wert sind als gedacht => 650 Euro je Quadratmeter Wohnfläche
k: Unterversicherung Verzicht Quadratmeter
---
@ 2 |
Wertsachen sind nur bis zu einer Grenze versichert. Bargeld und auf Geldkarten geladene Beträge werden
bis 1.500 Euro ersetzt, wenn sie nicht in einem verschlossenen Tresor mit einem Gewicht von mindestens
200 Kilogramm aufbewahrt wurden; im Tresor gilt eine Grenze von 5.000 Euro. Urkunden einschließlich
Sparbüchern sind außerhalb eines Tresors bis 2.500 Euro versichert.
p: wie viel von dem geld, das bei mir zuhause lag, bekomme ich nach einem einbruch zurück => bis 1.500 Euro ersetzt
k: Tresor 200 Kilogramm Sparbüchern
---
@ 3 | Außenversicherung
Versicherte Sachen, die sich vorübergehend außerhalb der Wohnung befinden, sind weltweit mitversichert
(Außenversicherung). Als vorübergehend gilt ein Zeitraum von längstens drei Monaten. Die Entschädigung
ist auf 10 Prozent der Versicherungssumme, höchstens 15.000 Euro, begrenzt. Sachen, die sich in einer
Zweitwohnung oder einem Ferienhaus des Versicherungsnehmers befinden, gelten nicht als vorübergehend
außerhalb der Wohnung.
p: sind meine koffer und sachen im urlaubshotel auch versichert => weltweit mitversichert (Außenversicherung)
k: weltweit vorübergehend Zweitwohnung Ferienhaus
---
@ 1 | Überspannung durch Blitz
Versichert sind auch Schäden an elektrischen Einrichtungen und Geräten, die durch Überspannung,
Überstrom oder Kurzschluss infolge eines Blitzes oder durch atmosphärisch bedingte Elektrizität
entstehen, etwa an Fernsehern, Computern oder Heizungssteuerungen. Die Entschädigung für solche Schäden
ist je Versicherungsfall auf 10 Prozent der Versicherungssumme begrenzt.
p: zahlt die versicherung wenn bei einem gewitter mein fernseher kaputt geht => Überspannung, Überstrom oder Kurzschluss infolge eines Blitzes
k: Überstrom Kurzschluss Heizungssteuerungen
---
@ 3 | Hotelkosten
Ist die ständig bewohnte Wohnung nach einem Versicherungsfall unbewohnbar und ist dem
Versicherungsnehmer auch die Beschränkung auf einen bewohnbaren Teil nicht zumutbar, ersetzt der
Versicherer die Kosten für Hotel oder ähnliche Unterbringung ohne Nebenkosten wie Frühstück oder
Telefon. Die Kosten werden bis zu dem Zeitpunkt ersetzt, zu dem die Wohnung wieder bewohnbar ist,
längstens für 100 Tage und höchstens mit 1 Promille der Versicherungssumme je Tag.
p: wer bezahlt die übernachtung wenn ich nach einem feuer nicht in meiner wohnung schlafen kann => längstens für 100 Tage
k: unbewohnbar Frühstück Telefon
---
@ 6 | Kündigung nach dem Versicherungsfall
Nach dem Eintritt eines Versicherungsfalls können beide Vertragsparteien den Versicherungsvertrag
kündigen. Die Kündigung ist in Textform zu erklären und muss der anderen Partei spätestens einen Monat
nach dem Abschluss der Verhandlungen über die Entschädigung zugehen. Kündigt der Versicherungsnehmer,
wird die Kündigung sofort oder zu einem späteren Zeitpunkt wirksam, jedoch spätestens zum Ende der
laufenden Versicherungsperiode. Eine Kündigung des Versicherers wird einen Monat nach ihrem Zugang
wirksam.
p: kann ich nach einem schadenfall den vertrag beenden und bis wann => einen Monat nach dem Abschluss der Verhandlungen
k: Textform Abschluss der Verhandlungen
---
@ 5 | Wohnungswechsel
Wechselt der Versicherungsnehmer die Wohnung, geht der Versicherungsschutz auf die neue Wohnung über.
Während des Umzugs besteht Versicherungsschutz in beiden Wohnungen, längstens für zwei Monate nach
Umzugsbeginn. Der Wohnungswechsel ist dem Versicherer spätestens bei Umzugsbeginn unter Angabe der neuen
Wohnfläche in Quadratmetern anzuzeigen. Liegt die neue Wohnung im Ausland, endet der Vertrag mit dem
Auszug.
p: was gilt für meinen hausrat während ich in eine andere stadt ziehe => in beiden Wohnungen
k: Umzugsbeginn Ausland Auszug
---
@ 5 | Grobe Fahrlässigkeit
Führt der Versicherungsnehmer den Versicherungsfall grob fahrlässig herbei, ist der Versicherer
grundsätzlich berechtigt, seine Leistung in einem der Schwere des Verschuldens entsprechenden Verhältnis
zu kürzen. Abweichend davon verzichtet der Versicherer bei Schäden bis zu einem Betrag von 10.000 Euro auf
die Kürzung, etwa wenn eine unbeaufsichtigte Kerze einen Brand verursacht. Der Verzicht gilt nicht bei
der Verletzung von Obliegenheiten.
p: bekomme ich weniger geld wenn ich aus versehen eine kerze habe brennen lassen => bis zu einem Betrag von 10.000 Euro
k: unbeaufsichtigte Kerze Verschuldens
---
@ 7 |
Nach einem Einbruchdiebstahl, Raub oder Vandalismus hat der Versicherungsnehmer der zuständigen
Polizeidienststelle unverzüglich ein Verzeichnis der abhanden gekommenen Sachen einzureichen
(Stehlgutliste). Eine Kopie der Stehlgutliste ist auch dem Versicherer zu übersenden. Abhanden
gekommene Sparbücher und andere sperrfähige Urkunden sind unverzüglich sperren zu lassen; für
abhanden gekommene Wertpapiere ist das Aufgebotsverfahren einzuleiten.
p: was muss ich nach einem einbruch der polizei geben => Stehlgutliste
k: Aufgebotsverfahren Wertpapiere sperren
---
@ 5 |
Eine Gefahrerhöhung liegt insbesondere vor, wenn die ansonsten ständig bewohnte Wohnung länger als
60 Tage oder über eine für den Einzelfall vereinbarte längere Frist hinaus unbewohnt bleibt und auch
nicht beaufsichtigt wird. Beaufsichtigt ist eine Wohnung nur, wenn sich während der Nacht eine dazu
berechtigte volljährige Person darin aufhält.
p: muss ich der versicherung bescheid sagen wenn ich ein vierteljahr verreise und niemand in der wohnung ist => länger als 60 Tage
k: volljährige Person Nacht unbewohnt
---
@ 3 |
Nicht versichert sind Schäden durch Bruch von Glasscheiben, Spiegeln, Glaskeramik-Kochflächen und
Aquarien, auch wenn sie zum versicherten Hausrat gehören. Für diese Schäden kann eine gesonderte
Glasversicherung vereinbart werden; sie erstreckt sich auch auf Scheiben von Bilderrahmen und Vitrinen.
Ausgenommen bleiben Schäden an Glas, die durch einen versicherten Brand entstehen.
p: ersetzt die hausratversicherung ein kaputtes ceranfeld in der küche => Glaskeramik-Kochflächen
k: Aquarien Spiegeln Bilderrahmen
---
@ 6 | Fälligkeit des Erstbeitrags
Der erste oder einmalige Beitrag wird unverzüglich nach Ablauf von 14 Tagen nach Zugang des
Versicherungsscheins fällig. Zahlt der Versicherungsnehmer nicht rechtzeitig, beginnt der
Versicherungsschutz erst mit der Zahlung; der Versicherer kann vom Vertrag zurücktreten, solange der
Beitrag nicht gezahlt ist, es sei denn, der Versicherungsnehmer hat die Nichtzahlung nicht zu vertreten.
p: wann muss ich das erste mal bezahlen => 14 Tagen nach Zugang des Versicherungsscheins
k: einmalige Beitrag Nichtzahlung vertreten
---
@ 8 |
Ein Einbruchdiebstahl liegt auch vor, wenn der Dieb in einen Raum eines Gebäudes mittels eines falschen
Schlüssels eindringt. Der Gebrauch eines falschen Schlüssels ist nicht schon dann bewiesen, wenn
feststeht, dass versicherte Sachen abhanden gekommen sind. Ein Schlüssel ist falsch, wenn seine
Anfertigung nicht von einer dazu berechtigten Person veranlasst oder gebilligt worden ist.
p: gilt es als einbruch wenn der täter mit einem nachgemachten schlüssel reinkommt => falschen Schlüssels
k: Anfertigung berechtigten Person gebilligt
"""

SLOTS = {
    "gefahr": ["Brand, Blitzschlag, Explosion oder Implosion", "Einbruchdiebstahl, Raub oder Vandalismus nach einem Einbruch",
               "bestimmungswidrig austretendes Leitungswasser", "Sturm oder Hagel", "Anprall oder Absturz eines Luftfahrzeugs",
               "Rauch oder Ruß", "den Überschallknall eines Flugzeugs", "Frost an wasserführenden Anlagen"],
    "sache": ["Möbel", "Teppiche", "Kleidung", "Pelze", "Musikinstrumente", "Sportgeräte", "Kunstgegenstände",
              "Antiquitäten", "Gartenmöbel", "Kinderwagen", "Krankenfahrstühle", "Elektrogeräte", "Bücher",
              "Haushaltsgeräte", "Schmucksachen", "Briefmarkensammlungen"],
    "kosten": ["Aufräumungskosten", "Bewegungs- und Schutzkosten", "Transport- und Lagerkosten",
               "Schlossänderungskosten", "Bewachungskosten", "Reparaturkosten für Nässeschäden an Bodenbelägen",
               "Kosten für provisorische Maßnahmen"],
    "person": ["der Versicherungsnehmer", "eine mit dem Versicherungsnehmer in häuslicher Gemeinschaft lebende Person",
               "ein Repräsentant des Versicherungsnehmers", "ein Mitversicherter"],
    "frist": ["unverzüglich", "innerhalb einer Woche", "innerhalb von zwei Wochen", "innerhalb eines Monats",
              "spätestens bei Fälligkeit"],
    "ort": ["in der Wohnung", "in Kellerräumen des Gebäudes", "in Garagen in der Nähe des Versicherungsortes",
            "auf dem Grundstück", "in gemeinschaftlich genutzten Räumen"],
    "pflicht": ["den Versicherer über jede Änderung der Anschrift zu unterrichten",
                "Weisungen des Versicherers zur Schadenabwendung einzuholen und zu befolgen",
                "das Schadenbild so lange unverändert zu lassen, bis der Versicherer es freigegeben hat",
                "dem Versicherer jede zumutbare Untersuchung über Ursache und Höhe des Schadens zu gestatten",
                "Belege über den Wert der beschädigten Sachen vorzulegen",
                "die gesetzlichen und vereinbarten Sicherheitsvorschriften einzuhalten"],
    "begriff": ["Versicherungsort | die im Versicherungsschein bezeichnete Wohnung einschließlich der Räume in Nebengebäuden auf demselben Grundstück",
                "Hausrat | alle Sachen, die dem Haushalt des Versicherungsnehmers zur privaten Nutzung dienen",
                "Wiederbeschaffungspreis | der Betrag, der für die Beschaffung von Sachen gleicher Art und Güte in neuwertigem Zustand aufzuwenden ist",
                "Versicherungsperiode | der Zeitraum eines Jahres, sofern nicht ein kürzerer Zeitraum vereinbart ist",
                "Textform | eine lesbare Erklärung auf einem dauerhaften Datenträger, in der die Person des Erklärenden genannt ist",
                "Repräsentant | eine Person, die in dem Geschäftsbereich, zu dem das versicherte Risiko gehört, an die Stelle des Versicherungsnehmers getreten ist",
                "Wohnfläche | die Grundfläche der Räume der Wohnung, ohne Treppen, Balkone, Loggien und Terrassen",
                "Entschädigungsgrenze | der Höchstbetrag, bis zu dem der Versicherer für bestimmte Sachen oder Kosten leistet",
                "Sachverständigenverfahren | das Verfahren, in dem die Höhe des Schadens von Sachverständigen festgestellt wird",
                "Nutzungsausfall | der Ausfall der Nutzung einer Sache, für den der Versicherer nur bei besonderer Vereinbarung leistet",
                "Vandalismus | die vorsätzliche Zerstörung oder Beschädigung versicherter Sachen durch einen Täter, der eingebrochen ist"],
    "tarif": ["Tarifzone I", "Tarifzone II", "Tarifzone III", "Tarifzone IV", "Tarifzone V"],
    "baustein": ["Grunddeckung", "Komfort", "Premium", "Premium Plus"],
    "sachgruppe": ["Wertsachen insgesamt", "Schmucksachen außerhalb eines Tresors", "Kunstgegenstände",
                   "Briefmarkensammlungen", "Pelze und Teppiche", "Elektrogeräte", "Gartenmöbel", "Musikinstrumente"],
}
SLOTS["Sache"] = SLOTS["sache"]

PROSE = [
    "Versichert sind {sache}, die durch {gefahr} zerstört oder beschädigt werden oder infolgedessen abhandenkommen.",
    "Die Entschädigung für {sache} ist je Versicherungsfall auf {int:2:25} Prozent der Versicherungssumme begrenzt, soweit nicht nach {ref} etwas anderes vereinbart ist.",
    "Der Versicherungsnehmer hat {frist} {pflicht}.",
    "Verletzt {person} eine der in {ref} genannten Obliegenheiten vorsätzlich, ist der Versicherer von der Verpflichtung zur Leistung frei.",
    "Der Versicherer ersetzt die infolge eines Versicherungsfalls notwendigen {kosten}.",
    "{Kosten} werden bis zu {int:2:10} Prozent der Versicherungssumme ersetzt, soweit sie den Umständen nach geboten waren.",
    "Nicht versichert sind Schäden, die durch {gefahr} an Sachen entstehen, die sich nicht {ort} befinden, sofern § {num:2:40} nichts anderes bestimmt.",
    "Die Bestimmungen über {sache} gelten entsprechend für Sachen, die {ort} aufbewahrt werden.",
    "Im Übrigen gelten die Regelungen in {ref} über die Anzeigepflicht und die Folgen ihrer Verletzung.",
    "Die Beweislast für die Verletzung einer Obliegenheit trägt der Versicherer; die Beweislast für das Fehlen grober Fahrlässigkeit trägt {person}.",
    "Ersetzt werden der Wiederbeschaffungspreis von Sachen gleicher Art und Güte im neuwertigen Zustand und die notwendigen Reparaturkosten.",
    "Für {sache} gilt abweichend von Absatz {num:1:4} der Zeitwert, wenn ihr Zeitwert weniger als {int:20:50} Prozent des Neuwertes beträgt.",
    "Der Versicherungsschutz für {sache} {ort} erstreckt sich nicht auf Schäden durch {gefahr}.",
    "Die Leistung ist fällig, wenn die Feststellungen zum Grunde und zur Höhe des Anspruchs abgeschlossen sind.",
    "Der Versicherungsnehmer kann einen Monat nach Meldung des Schadens als Abschlagszahlung den Betrag beanspruchen, der nach Lage der Sache mindestens zu zahlen ist.",
    "Soweit {person} Kenntnis von Umständen hat, die für die Beurteilung der Gefahr erheblich sind, muss der Versicherungsnehmer sich diese Kenntnis zurechnen lassen.",
    "Die Regelungen dieses Paragraphen gelten auch für {sache}, die sich zum Zeitpunkt des Versicherungsfalls {ort} befinden.",
    "Mehrere Schäden, die auf derselben Ursache beruhen, gelten als ein Versicherungsfall.",
    "Wiederherbeigeschaffte Sachen sind dem Versicherer {frist} anzuzeigen, nachdem {person} davon Kenntnis erlangt hat.",
    "Der Anspruch auf die Entschädigung verjährt in drei Jahren; die Frist beginnt mit dem Schluss des Jahres, in dem der Anspruch entstanden ist.",
    "Sind {sache} zugleich in einem anderen Vertrag versichert, gehen die Bestimmungen über die Mehrfachversicherung vor.",
    "Die Versicherungssumme soll dem Versicherungswert entsprechen; maßgeblich ist der Wiederbeschaffungspreis des gesamten Hausrats.",
    "Weicht der Versicherer nach {ref} von diesen Bedingungen ab, ist die Abweichung im Versicherungsschein zu vermerken.",
    "Eine Leistung für {kosten} setzt voraus, dass der Versicherer ihnen vorher zugestimmt hat, es sei denn, die Kosten waren unaufschiebbar.",
    "Der Versicherungsschutz für {sache} besteht nur, soweit dies im Versicherungsschein ausdrücklich vereinbart ist.",
    "Für Schäden durch {gefahr} gilt die in {ref} vereinbarte Selbstbeteiligung von {int:150:500} Euro je Versicherungsfall.",
    "Bei der Bemessung der Entschädigung werden Restwerte angerechnet.",
    "Die Summe der Entschädigungen für {sache} und {sache} darf {int:15:40} Prozent der Versicherungssumme nicht übersteigen.",
    "Kosten der Ermittlung und Feststellung des Schadens trägt der Versicherer, soweit sie den Umständen nach geboten waren.",
    "Alle Mitteilungen an den Versicherer sollen an die Hauptverwaltung oder an die im Versicherungsschein bezeichnete Geschäftsstelle gerichtet werden.",
]

DOC = DocSpec(
    id="de-hausrat-bedingungen", lang="de", kind="contract", half="report",
    title="Allgemeine Hausrat-Versicherungsbedingungen (VHB 2024)",
    subtitle="Nordstern Versicherung AG – Tarif Hausrat Komfort und Premium, Fassung Januar 2024",
    byline=["Nordstern Versicherung AG, Hamburg", "Bedingungswerk HR-2024-01"],
    running="Nordstern Versicherung AG – VHB 2024", pages=92,
    chapters=["Versicherte Gefahren und Schäden", "Versicherte Sachen", "Versicherungsort und Kosten",
              "Versicherungswert und Entschädigung", "Obliegenheiten und Gefahrerhöhung",
              "Beginn, Beitrag und Ende des Vertrags", "Verfahren im Schadenfall", "Begriffsbestimmungen|definitions",
              "Anhang: Entschädigungsgrenzen und Beitragstabellen|tables"],
    chapter_label="Abschnitt {L}", numbering="continuous", section_label="§ {k}", ref_label="§ {k}",
    clause_numbers=True, sentences=(2, 4), style="serif",
    section_titles=["{Sache}", "Versicherte Kosten: {kosten}", "Schäden durch {gefahr}", "Entschädigungsgrenzen für {sache}",
                    "Obliegenheiten bei {sache}", "Ausschlüsse", "Selbstbeteiligung", "Zahlung der Entschädigung",
                    "Sachverständigenverfahren", "Wiederherbeigeschaffte Sachen", "Mehrfachversicherung",
                    "Versicherungswert", "Anzeigen und Willenserklärungen", "Vertragsdauer", "Verjährung",
                    "Repräsentanten", "Anzuwendendes Recht", "Beitragsanpassung", "Übergang von Ersatzansprüchen"],
    slots=SLOTS, prose=PROSE, targets=TARGETS,
    blocks={"prose": 6.0, "items": 0.7, "table": 0.35},
    items=["{Sache}, soweit sie {ort} aufbewahrt werden;", "Schäden durch {gefahr};", "{Kosten} nach {ref};",
           "Sachen, die im Eigentum eines Mitversicherten stehen;", "{Sache} bis zu {int:500:5000} Euro;"],
    lead={"items": ["Nicht versichert sind:", "Versichert sind, soweit vereinbart:", "Der Versicherer ersetzt:",
                    "Als Obliegenheit gilt insbesondere:"],
          "table": ["Es gelten folgende Werte:", "Die Entschädigungsgrenzen ergeben sich aus der folgenden Übersicht."],
          "deflist": ["Im Sinne dieser Bedingungen bedeuten:"]},
    deflist="begriff",
    tables=[TableSpec("Entschädigungsgrenzen je Versicherungsfall (Euro)", ["Sachgruppe", "Grunddeckung", "Komfort", "Premium"],
                      ["seq:sachgruppe", "{int:500:5000}", "{int:5000:15000}", "{int:15000:40000}"], (5, 8)),
            TableSpec("Jahresbeitrag je 1.000 Euro Versicherungssumme", ["Tarifzone", "Grunddeckung", "Komfort", "Premium"],
                      ["seq:tarif", "{dec:2:0.6:1.2}", "{dec:2:1.1:1.8}", "{dec:2:1.6:2.6}"], (5, 5)),
            TableSpec("Selbstbeteiligung nach Bausteinen", ["Baustein", "Sturm/Hagel", "Leitungswasser", "Einbruch"],
                      ["seq:baustein", "{int:0:500}", "{int:0:500}", "{int:0:300}"], (4, 4))],
)


def documents() -> list[DocSpec]:
    return [DOC]
