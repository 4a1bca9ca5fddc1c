"""French document of the hybrid corpus (format: bench/hybrid_corpus.py): the annual report of a
logistics group, with the consolidated accounts and numeric tables on most pages.

Target passages and their questions were written together, before any ranking was run. The
generated text talks about revenue, margins and segments with random figures, but never about what
a target states (the dividend, the acquisition, the covenant, the cyber attack and so on).
"""

from __future__ import annotations

from bench.hybrid_corpus import DocSpec, TableSpec

TARGETS = """
@ 1 | Proposition de dividende
Compte tenu des résultats de l'exercice et de la solidité de la structure financière, le conseil
d'administration proposera à l'assemblée générale du 6 juin 2024 de verser un dividende de 1,35 euro
par action au titre de l'exercice 2023, contre 1,10 euro l'année précédente. Le dividende serait
détaché le 10 juin et mis en paiement le 12 juin 2024. Il représente un taux de distribution de 41 %
du résultat net part du Groupe.
p: combien les actionnaires vont-ils toucher par titre cette année => 1,35 euro par action
k: détaché mis en paiement distribution
---
@ 3 | Acquisition de Frigolog
Le 28 septembre 2023, le Groupe a finalisé l'acquisition de 100 % du capital de Frigolog, spécialiste
espagnol de la logistique sous température dirigée, pour un prix de 68 millions d'euros, dette reprise
comprise. Frigolog exploite onze entrepôts autour de Madrid, Valence et Saragosse et emploie 640
personnes ; la société est consolidée depuis le 1er octobre 2023 et a contribué à hauteur de 21,4
millions d'euros au chiffre d'affaires de l'exercice.
p: quelle société le groupe a-t-il achetée en espagne et pour combien => acquisition de 100 % du capital de Frigolog
k: onze entrepôts Madrid Valence
---
@ 4 |
Les contrats de crédit syndiqué comportent un engagement financier : le rapport entre l'endettement net
et l'EBITDA consolidé ne doit pas dépasser 3,0 à chaque date de clôture annuelle ou semestrielle. Au
31 décembre 2023, ce ratio s'établissait à 2,1, contre 1,8 un an plus tôt, la hausse s'expliquant
principalement par le financement de l'acquisition de Frigolog. Le non-respect de cet engagement
pourrait entraîner l'exigibilité anticipée des sommes empruntées.
p: le groupe risque-t-il de ne plus respecter les conditions imposées par ses banques => ne doit pas dépasser 3,0
k: crédit syndiqué exigibilité anticipée
---
@ 6 | Réduction des émissions du parc
Les émissions de CO2 par tonne-kilomètre transportée ont baissé de 18 % par rapport à 2019. Cette baisse
tient pour l'essentiel aux 240 tracteurs routiers roulant au bioGNV mis en service depuis 2021, qui
représentent désormais 19 % du parc, et à l'optimisation des tournées par un nouveau logiciel de
planification. L'objectif est d'atteindre une réduction de 35 % en 2028.
p: qu'est-ce que l'entreprise a fait pour que ses camions polluent moins => 240 tracteurs routiers roulant au bioGNV
k: tonne-kilomètre biognv tournées
---
@ 8 | Incident de cybersécurité
Le 12 octobre 2023, une attaque par rançongiciel a rendu indisponible pendant quatre jours le système de
gestion d'entrepôt du site de Lyon-Corbas. Les expéditions ont été assurées en mode dégradé, en partie à
partir d'autres sites. Aucune rançon n'a été versée. Le coût de l'incident, y compris les pénalités
clients et les frais de remise en état, est estimé à 3,2 millions d'euros, dont 1,9 million pris en
charge par l'assurance.
p: l'entreprise a-t-elle été victime d'un piratage informatique => rançongiciel
k: aucune rançon versée mode dégradé
---
@ 8 | Dépendance vis-à-vis des clients
Le premier client du Groupe, une enseigne de la grande distribution alimentaire, représente 9,4 % du
chiffre d'affaires consolidé ; les dix premiers clients en représentent 38 %. Aucun autre client ne
dépasse 5 %. Les contrats avec les principaux clients ont une durée moyenne de quatre ans et comportent
des clauses d'indexation sur le prix du carburant.
p: est-ce que le groupe dépend beaucoup d'un seul gros client => représente 9,4 % du chiffre d'affaires consolidé
k: premier client enseigne dix premiers
---
@ 7 | Rémunération du président-directeur général
La rémunération fixe annuelle du président-directeur général s'élève à 620 000 euros, inchangée depuis
2021. Sa rémunération variable peut atteindre 100 % de la part fixe ; elle dépend pour 60 % de critères
financiers et pour 40 % de critères extra-financiers. Au titre de 2023, le conseil a constaté un taux
d'atteinte de 71 %, soit une rémunération variable de 440 200 euros, dont le versement est soumis à
l'approbation de l'assemblée générale.
p: combien est payé le patron de l'entreprise => 620 000 euros
k: taux d'atteinte extra-financiers
---
@ 7 |
Le mandat du cabinet Arnaud Leclerc & Associés, commissaire aux comptes titulaire depuis 2012, arrive à
échéance à l'issue de l'assemblée générale de 2024. Conformément à la réglementation sur la rotation des
cabinets, il ne peut être renouvelé. Sur recommandation du comité d'audit, à l'issue d'un appel
d'offres auprès de quatre cabinets, le conseil proposera la nomination du cabinet Mercier Audit pour
six exercices.
p: qui va contrôler les comptes à partir de l'an prochain => Mercier Audit
k: rotation des cabinets appel d'offres
---
@ 11 | Programme de rachat d'actions
L'assemblée générale sera invitée à autoriser un nouveau programme de rachat portant sur 2 % au plus du
capital, pour une durée de dix-huit mois. Le prix maximal d'achat est fixé à 48 euros par action. Les
actions rachetées pourront être annulées ou servir à couvrir les plans d'actions de performance attribués
aux salariés.
p: la société a-t-elle l'intention de racheter ses propres titres en bourse => prix maximal d'achat est fixé à 48 euros
k: dix-huit mois actions de performance
---
@ 10 |
En mars 2023, l'Autorité de la concurrence a adressé au Groupe et à trois autres transporteurs une
notification de griefs portant sur des échanges d'informations tarifaires entre 2015 et 2018. Le Groupe
conteste ces griefs. Une provision de 7,5 millions d'euros a néanmoins été constituée au 31 décembre
2023 ; la décision de l'Autorité est attendue au second semestre 2024.
p: une amende des autorités est-elle possible pour entente sur les prix => provision de 7,5 millions d'euros
k: notification de griefs transporteurs
---
@ 5 | Plateforme de Cavaillon
La nouvelle plateforme de Cavaillon, d'une surface de 42 000 m², a été mise en service en mars 2024. Elle
comprend 18 000 m² de chambres froides à -25 °C pour les produits surgelés et un quai de 64 portes. Son
toit porte 9 000 m² de panneaux photovoltaïques qui couvrent environ 30 % de sa consommation
d'électricité. L'investissement total s'élève à 54 millions d'euros.
p: où le groupe a-t-il ouvert son nouvel entrepôt pour les aliments congelés => La nouvelle plateforme de Cavaillon
k: 64 portes panneaux photovoltaïques
---
@ 8 |
Le carburant représente environ 14 % des charges d'exploitation du transport routier. Pour limiter
l'effet de ses variations, le Groupe a couvert au moyen de contrats d'échange 60 % de ses besoins en gazole
pour 2024 à un prix moyen de 0,71 euro par litre hors taxes. Les besoins restants sont répercutés aux
clients par les clauses d'indexation.
p: comment l'entreprise se protège-t-elle contre la hausse du prix du diesel => 60 % de ses besoins en gazole
k: contrats d'échange litre hors taxes
---
@ 6 |
Le taux de fréquence des accidents du travail avec arrêt s'est établi à 18,2 en 2023, contre 24,5 en 2021,
grâce au programme de prévention lancé sur les quais et dans les entrepôts : formation des caristes,
séparation des flux de piétons et de chariots et port obligatoire de chaussures de sécurité renforcées.
Aucun accident mortel n'est à déplorer.
p: les salariés se blessent-ils moins souvent au travail qu'avant => taux de fréquence des accidents du travail
k: caristes chariots piétons
"""

SLOTS = {
    "metier": ["Transport routier", "Logistique contractuelle", "Entreposage frigorifique", "Services portuaires",
               "Messagerie", "Commission de transport"],
    "indicateur": ["le chiffre d'affaires", "l'EBITDA", "le résultat opérationnel courant", "la marge opérationnelle",
                   "le résultat net", "les investissements industriels", "l'endettement net",
                   "le besoin en fonds de roulement", "la trésorerie disponible", "les charges de personnel",
                   "les charges externes", "le volume traité"],
    "region": ["en France", "au Benelux", "dans la péninsule Ibérique", "en Europe centrale", "en Allemagne",
               "au Royaume-Uni", "en Italie du Nord"],
    "secteur": ["la grande distribution", "l'industrie agroalimentaire", "la pharmacie", "le commerce en ligne",
                "l'industrie automobile", "les produits de beauté"],
    "periode": ["au premier trimestre", "au deuxième trimestre", "au troisième trimestre", "au quatrième trimestre",
                "au premier semestre", "au second semestre", "sur l'ensemble de l'exercice"],
    "site": ["Rungis", "Lyon-Corbas", "Le Havre", "Dunkerque", "Anvers", "Bratislava", "Orléans", "Bordeaux-Bruges",
             "Strasbourg", "Rennes"],
    "facteur": ["la hausse des volumes", "l'effet des prix", "l'évolution du périmètre", "les effets de change",
                "la hausse des salaires", "la baisse de l'activité de commission", "les gains de productivité",
                "le coût de l'énergie", "l'intégration des nouveaux sites"],
    "norme": ["IFRS 16", "IAS 36", "IFRS 15", "IAS 19", "IFRS 9", "IAS 12", "IFRS 3"],
    "sujet": ["les contrats de location", "les dépréciations d'actifs", "la reconnaissance du revenu",
              "les engagements de retraite", "les instruments financiers", "les impôts différés",
              "les regroupements d'entreprises"],
    "ligne_cr": ["Chiffre d'affaires", "Achats consommés", "Charges de personnel", "Charges externes", "Impôts et taxes",
                 "Dotations aux amortissements", "Résultat opérationnel courant", "Autres produits et charges",
                 "Résultat opérationnel", "Coût de l'endettement financier net", "Impôt sur le résultat",
                 "Résultat net"],
    "ligne_bilan": ["Écarts d'acquisition", "Immobilisations incorporelles", "Immobilisations corporelles",
                    "Droits d'utilisation", "Actifs financiers non courants", "Impôts différés actifs", "Stocks",
                    "Clients et comptes rattachés", "Autres créances", "Trésorerie et équivalents"],
    "pays": ["France", "Belgique", "Pays-Bas", "Espagne", "Portugal", "Allemagne", "Slovaquie", "Italie"],
    "annee": ["2024", "2025", "2026", "2027", "2028", "2029 et au-delà"],
    "indic_env": ["Consommation de gazole (millions de litres)", "Consommation d'électricité (GWh)",
                  "Émissions directes (kt CO2)", "Déchets valorisés (%)", "Surface certifiée (milliers de m²)",
                  "Part des véhicules Euro VI (%)"],
}

PROSE = [
    "{Indicateur} s'établit à {dec:1:20:900} millions d'euros, en hausse de {pct:0.5:12} % à périmètre et change constants.",
    "Cette évolution s'explique principalement par {facteur} et, dans une moindre mesure, par {facteur}.",
    "L'activité {metier} a bénéficié de la reprise des volumes {region}, notamment dans {secteur}.",
    "{Periode}, {indicateur} a reculé de {pct:0.5:9} % sous l'effet de {facteur}.",
    "Les comptes consolidés sont établis conformément aux normes IFRS telles qu'adoptées par l'Union européenne.",
    "La norme {norme}, qui traite {sujet}, est appliquée selon la méthode rétrospective simplifiée.",
    "Le site de {site} a traité {int:40:900} milliers de palettes en 2023, soit {pct:1:15} % de plus qu'en 2022.",
    "Le Groupe emploie {int:300:4000} collaborateurs {region}, dont {pct:5:40} % en contrat à durée déterminée ou en intérim.",
    "Les données sont présentées en millions d'euros ; des écarts d'arrondi peuvent apparaître dans les totaux.",
    "Le tableau {tab} détaille {indicateur} par métier et par zone géographique.",
    "{Indicateur} de l'activité {metier} représente {pct:5:45} % du total du Groupe.",
    "La marge opérationnelle courante de l'activité {metier} ressort à {pct:1.5:9} %, contre {pct:1.5:9} % en 2022.",
    "Les investissements de l'exercice ont porté sur la modernisation des entrepôts de {site} et de {site}.",
    "Comme indiqué à la note {num:2:34}, les engagements hors bilan n'ont pas évolué de manière significative.",
    "La demande de {secteur} est restée soutenue {periode}, malgré un contexte de consommation ralentie.",
    "Les hypothèses retenues pour les tests de dépréciation sont décrites au paragraphe {ref}.",
    "L'activité {metier} {region} a été pénalisée par {facteur}.",
    "Le Groupe a signé {int:3:25} nouveaux contrats pluriannuels avec des acteurs de {secteur}.",
    "Hors effets de périmètre, {indicateur} aurait progressé de {pct:0.5:8} %.",
    "La direction financière revoit chaque trimestre les prévisions de trésorerie de chaque filiale.",
    "Les filiales {region} ont contribué pour {dec:1:5:250} millions d'euros à {indicateur}.",
    "Les montants relatifs à {sujet} sont présentés selon la norme {norme}.",
    "Le taux de service, mesuré par le respect des créneaux de livraison, atteint {pct:92:99.5} % sur le site de {site}.",
    "Aucun événement postérieur à la clôture n'est de nature à remettre en cause les comptes présentés.",
    "Les perspectives pour 2024 tiennent compte de {facteur} et d'une stabilisation des volumes {region}.",
    "La contribution de {secteur} au chiffre d'affaires de l'activité {metier} est passée de {pct:8:30} % à {pct:8:30} %.",
    "La politique de ressources humaines met l'accent sur la formation des conducteurs et des préparateurs de commandes.",
    "Le comité d'audit s'est réuni {num:4:9} fois au cours de l'exercice, avec un taux de présence de {num:90:100} %.",
    "Les écarts d'acquisition sont affectés aux unités génératrices de trésorerie correspondant aux métiers.",
    "Le résultat financier intègre une charge d'intérêts sur dettes locatives de {dec:1:2:15} millions d'euros.",
]

DOC = DocSpec(
    id="fr-valmorel-rapport-annuel", lang="fr", kind="report", half="tune",
    title="Groupe Valmorel – Rapport annuel 2023",
    subtitle="Rapport de gestion, gouvernement d'entreprise et comptes consolidés de l'exercice clos le 31 décembre 2023",
    byline=["Valmorel SA – Société anonyme au capital de 48 612 000 euros", "Siège social : 14, quai de la Marne, 69007 Lyon"],
    running="Valmorel – Rapport annuel 2023", pages=148,
    chapters=["Message du président", "Le Groupe en bref", "Faits marquants de l'exercice", "Rapport de gestion",
              "Activités par métier", "Responsabilité sociale et environnementale", "Gouvernement d'entreprise",
              "Facteurs de risques", "Comptes consolidés|tables", "Notes annexes aux comptes consolidés",
              "Capital et actionnariat"],
    section_titles=["Activité {metier}", "{Indicateur}", "Évolution de {indicateur}", "Perspectives {region}",
                    "Activité {region}", "Principes comptables : {sujet}", "Note sur {sujet}", "Le site de {site}",
                    "Clients de {secteur}", "Analyse par métier", "Investissements", "Trésorerie et financement",
                    "Effectifs", "Événements postérieurs à la clôture"],
    slots=SLOTS, prose=PROSE, targets=TARGETS, footer="Rapport annuel 2023 – {p}",
    blocks={"prose": 4.0, "table": 2.6, "figure": 0.4, "items": 0.4, "note": 0.2},
    items=["{Indicateur} : {dec:1:5:900} millions d'euros ;", "activité {metier} {region} ;",
           "{int:3:40} nouveaux clients dans {secteur} ;", "mise en service du site de {site} ;"],
    lead={"items": ["Les faits marquants de la période sont les suivants :", "Les principaux indicateurs sont :"],
          "table": ["Les chiffres sont exprimés en millions d'euros.", "Le tableau ci-dessous présente la répartition."]},
    notes=["Les données de l'exercice précédent ont été retraitées pour tenir compte de {norme}.",
           "Les montants sont présentés hors activités abandonnées."],
    figures=["Évolution de {indicateur} par trimestre (en millions d'euros).", "Répartition du chiffre d'affaires par métier.",
             "Effectifs par pays au 31 décembre 2023."],
    tables=[TableSpec("Chiffre d'affaires par métier (en millions d'euros)", ["Métier", "2023", "2022", "Variation (%)"],
                      ["seq:metier", "{dec:1:40:620}", "{dec:1:40:620}", "{pct:-6:14}"], (6, 6), total="Total"),
            TableSpec("Compte de résultat consolidé (en milliers d'euros)", ["", "2023", "2022"],
                      ["seq:ligne_cr", "{int:1000:980000}", "{int:1000:980000}"], (12, 12)),
            TableSpec("Bilan consolidé – actif (en milliers d'euros)", ["", "31/12/2023", "31/12/2022"],
                      ["seq:ligne_bilan", "{int:1000:600000}", "{int:1000:600000}"], (10, 10), total="Total de l'actif"),
            TableSpec("Effectifs par pays au 31 décembre", ["Pays", "Cadres", "Employés", "Conducteurs", "Total"],
                      ["seq:pays", "{int:20:400}", "{int:100:1900}", "{int:50:2500}", "{int:300:4000}"], (8, 8), total="Total"),
            TableSpec("Échéancier de la dette financière (en millions d'euros)", ["Échéance", "Emprunts bancaires", "Dettes locatives", "Total"],
                      ["seq:annee", "{dec:1:5:120}", "{dec:1:5:80}", "{dec:1:10:200}"], (6, 6), total="Total"),
            TableSpec("Indicateurs environnementaux", ["Indicateur", "2021", "2022", "2023"],
                      ["seq:indic_env", "{dec:1:2:300}", "{dec:1:2:300}", "{dec:1:2:300}"], (6, 6)),
            TableSpec("Chiffre d'affaires trimestriel de l'activité {metier} (en millions d'euros)", ["Trimestre", "2022", "2023", "Variation (%)"],
                      ["seq:trimestre", "{dec:1:20:160}", "{dec:1:20:160}", "{pct:-8:15}"], (4, 4))],
)
SLOTS["trimestre"] = ["Premier trimestre", "Deuxième trimestre", "Troisième trimestre", "Quatrième trimestre"]


def documents() -> list[DocSpec]:
    return [DOC]
