"""Words and page texts of the collection benchmark's documents (bench/collection_corpus.py).

Pools are kept apart on purpose: a supplier's, a counterparty's, a site's or a city's words occur
only where the generator puts them, so that the complete answer to "which documents mention X" is
known from the generator alone (tests/bench/test_collection_corpus.py checks it against the text).
"""

from __future__ import annotations

import random

CLIENT = {"en": "Northwind Harbour Ltd", "de": "Nordwind Hafenbetriebe GmbH", "ru": "ООО «Северный причал»"}

# Contract counterparties: a first word of its own, then what the firm does (the services).
FIRMS = {
    "en": (["Ardent", "Bluegate", "Corvex", "Dunmore", "Elmstead", "Fenwick", "Galloway", "Harrowgate", "Ivel",
            "Juniper", "Kestrel", "Larkspur", "Marlow", "Norcott", "Oakhurst", "Pellham", "Redfern", "Stanmore",
            "Thornbury", "Ullswater", "Vantage", "Wexford", "Yarrow", "Zennor"],
           ["Logistics", "Security", "Facilities", "Engineering", "Catering", "Consulting"]),
    "de": (["Albrecht", "Brenner", "Castell", "Dornbusch", "Eichler", "Falkenrath", "Gerlach", "Hollmann"],
           ["Logistik", "Sicherheitsdienst", "Gebäudeservice", "Anlagenbau"]),
    "ru": (["Волга", "Зенит", "Каскад", "Меридиан", "Орбита", "Полюс", "Рубеж", "Сигма"],
           ["Логистик", "Охрана", "Сервис", "Строй"]),
}
SERVICE = {"Logistics": "warehousing and haulage", "Security": "manned guarding and patrols",
           "Facilities": "cleaning and building maintenance", "Engineering": "crane and conveyor maintenance",
           "Catering": "staff canteen catering", "Consulting": "port operations advice",
           "Logistik": "Lagerhaltung und Transporte", "Sicherheitsdienst": "Objektschutz und Streifendienst",
           "Gebäudeservice": "Reinigung und Hausmeisterdienste", "Anlagenbau": "Wartung der Krananlagen",
           "Логистик": "складские и транспортные услуги", "Охрана": "охрану территории причала",
           "Сервис": "уборку и обслуживание зданий", "Строй": "ремонт причальных сооружений"}
ADDRESS_CITY = {"en": ["Leeds", "Bristol", "Norwich", "Cardiff", "Aberdeen", "Exeter", "Derby", "Swansea"],
                "de": ["Bremen", "Kiel", "Lübeck", "Rostock"], "ru": ["Самара", "Пермь", "Тверь", "Омск"]}
# Where disputes go: an arbitration seat (with the rules) or the courts of a city.
SEATS = {"en": [("Geneva", "Swiss Rules of International Arbitration"), ("Stockholm", "SCC Arbitration Rules"),
                ("Vienna", "Vienna Rules"), ("Singapore", "SIAC Rules"), ("Paris", "ICC Rules of Arbitration")],
         "de": [("Zürich", "Swiss Rules"), ("Wien", "Wiener Regeln")], "ru": []}
COURTS = {"en": ["Manchester", "Edinburgh", "Belfast"], "de": ["Hamburg", "Frankfurt"],
          "ru": ["Москвы", "Казани", "Новосибирска"]}
# Optional clauses: (key, clause heading, clause text). The key words are the clause's own.
CLAUSES = {
    "en": [("convenience", "Termination for convenience",
            ("The Client may terminate this Agreement for convenience at any time by giving {days} days' written "
            "notice, without paying any compensation beyond the fees for services already performed.")),
           ("non-solicitation", "Non-solicitation",
            ("During the term and for twelve months after it, neither party shall solicit or hire any employee of "
            "the other party who worked on the services.")),
           ("liquidated damages", "Liquidated damages",
            ("If the Contractor misses a service level for two consecutive months it shall pay liquidated damages "
            "of {pct} per cent of the monthly fee for each further month.")),
           ("escrow", "Source code escrow",
            ("The Contractor shall deposit the source code of the scheduling software with an escrow agent and "
            "update the deposit after every release.")),
           ("most favoured", "Most favoured customer",
            ("The Contractor warrants that the rates in Schedule 1 are no higher than those it charges any other "
            "most favoured customer for comparable services.")),
           ("data processing", "Data processing",
            ("Where the Contractor processes personal data on behalf of the Client it acts as data processor "
            "under the UK GDPR and follows the data processing annex."))],
    "de": [("ordentliche Kündigung", "Ordentliche Kündigung",
            ("Der Auftraggeber kann diesen Vertrag jederzeit ohne Angabe von Gründen mit einer Frist von {days} "
            "Tagen ordentlich kündigen.")),
           ("Abwerbeverbot", "Abwerbeverbot",
            ("Während der Laufzeit und zwölf Monate danach werben die Parteien einander keine Mitarbeiter ab "
            "(Abwerbeverbot)."))],
    "ru": [("одностороннем порядке", "Односторонний отказ",
            ("Заказчик вправе в одностороннем порядке отказаться от исполнения договора, уведомив Исполнителя "
            "за {days} дней.")),
           ("конфиденциальности", "Конфиденциальность",
            "Стороны соблюдают режим конфиденциальности в отношении условий договора в течение трёх лет.")],
}
CLAUSE_SHARE = {"convenience": 0.35, "non-solicitation": 0.2, "liquidated damages": 0.1, "escrow": 0.04,
                "most favoured": 0.07, "data processing": 0.5, "ordentliche Kündigung": 0.4,
                "Abwerbeverbot": 0.25, "одностороннем порядке": 0.4, "конфиденциальности": 0.3}

SUPPLIERS = ["Hartley Office Supplies", "Brackwell Fuels", "Colbourne Print", "Dewhurst Cleaning Products",
             "Emberton Electrical", "Foxley Timber", "Grangemoor Tyres", "Hollins Workwear", "Ingleby Hydraulics",
             "Jessop Paints", "Kilbride Fasteners", "Lowther Safety Equipment"]
ITEMS = {"Hartley": [("A4 copier paper, box of 5 reams", 21.5), ("toner cartridge TN-2420", 58.0),
                     ("lever arch files, pack of 10", 17.9)],
         "Brackwell": [("marine diesel, litres", 0.92), ("AdBlue, 1000 l IBC", 410.0),
                       ("hydraulic oil HV46, 20 l", 64.0)],
         "Colbourne": [("printed delivery notes, 1000", 88.0), ("laminated site signs", 14.5),
                       ("tide tables, 500", 120.0)],
         "Dewhurst": [("floor degreaser, 5 l", 18.2), ("hand soap refills", 9.6), ("mop heads, pack of 12", 27.0)],
         "Emberton": [("LED floodlight 200 W", 145.0), ("armoured cable, 50 m", 230.0), ("RCD breaker", 38.5)],
         "Foxley": [("oak fender timbers", 312.0), ("pallet boards, bundle", 96.0), ("treated posts", 11.4)],
         "Grangemoor": [("forklift solid tyre", 265.0), ("tractor unit tyre 315/80", 398.0), ("tyre fitting", 45.0)],
         "Hollins": [("hi-vis jacket", 24.0), ("safety boots S3", 61.0), ("thermal gloves", 8.5)],
         "Ingleby": [("hydraulic hose assembly", 74.0), ("cylinder seal kit", 52.0), ("pump overhaul", 880.0)],
         "Jessop": [("anti-slip deck paint, 10 l", 132.0), ("yellow line paint, 5 l", 47.0), ("primer, 5 l", 39.0)],
         "Kilbride": [("galvanised bolts M20, box", 36.0), ("shackles 8 t", 42.0), ("anchor fixings", 3.2)],
         "Lowther": [("lifebuoy with line", 68.0), ("gas detector", 410.0), ("first aid kit", 32.0)]}
SUPPLIER_WEIGHTS = [30, 18, 12, 9, 7, 6, 5, 4, 3, 2, 2, 1]  # a few big suppliers, many small ones

SITES = ["Tilbury depot", "Felixstowe yard", "Rotterdam terminal", "Antwerp warehouse", "Hamburg quay",
         "Gdansk depot", "Bilbao terminal", "Genoa yard", "Piraeus depot", "Dublin warehouse", "Aarhus quay",
         "Leixoes store"]
# Inspection findings: (key words, the finding as written, the action recommended).
FINDINGS = [("asbestos", "Suspected asbestos lagging was found on the old boiler pipework in the plant room.",
             "Seal off the plant room and commission a specialist survey of the lagging."),
            ("rodent", "Rodent droppings were seen behind the shelving in bay 4.",
             "Engage pest control and fix the gap under the loading door."),
            ("fire exit", "The north fire exit was blocked by stacked empty pallets.",
             "Keep the escape route clear and add it to the daily walk-round."),
            ("emergency lighting", "Two emergency lighting units in the stairwell failed the monthly test.",
             "Replace the batteries of the failed units and retest."),
            ("handrail", "The handrail on the mezzanine stairs is corroded at its base plates.",
             "Replace the corroded base plates before the next quarter."),
            ("racking", "An upright of the pallet racking in aisle C was dented by a forklift.",
             "Unload the bay and have the damaged upright replaced."),
            ("roof", "Water is leaking through the roof above the charging area after heavy rain.",
             "Repair the leaking sheets and move the chargers until then."),
            ("extinguisher", "One fire extinguisher at the gatehouse was missing from its bracket.",
             "Replace the missing unit and tag all brackets."),
            ("quay wall", "A crack about two metres long runs along the quay wall near berth 2.",
             "Survey the crack and restrict heavy loads at berth 2.")]
FINDING_SHARE = [0.04, 0.12, 0.2, 0.25, 0.2, 0.25, 0.15, 0.3, 0.08]

BRANDS = ["Veltra", "Aquilon", "Brisk", "Calder", "Dynamo", "Everon", "Fjord", "Glint"]
PRODUCTS = [("pressure washer", "descale", "Descale the heating coil every 200 hours with the supplied descaler."),
            ("dehumidifier", "filter", "Wash the air filter in warm water every two weeks and let it dry."),
            ("floor scrubber", "squeegee", "Turn the squeegee blades when the edge is worn, then replace them."),
            ("portable generator", "spark plug", "Check the spark plug gap every 100 hours and replace it yearly."),
            ("pallet truck", "hydraulic", "Top up the hydraulic fluid and bleed the pump once a year.")]
ERRORS = [("E01", "the water inlet pressure is too low"), ("E07", "the motor has overheated"),
          ("E12", "the thermal fuse has tripped"), ("E19", "a sensor cable is disconnected"),
          ("E23", "the fan is blocked"), ("E31", "the battery voltage is too low"),
          ("E42", "the pump has run dry"), ("E55", "the control board lost its settings"),
          ("E68", "the drain valve is stuck"), ("E74", "the earth connection is faulty"),
          ("E86", "the tank is full"), ("E93", "the lid switch is open")]
SAFETY = [("lithium", "This machine contains a lithium battery pack: never puncture it or charge it below 0 °C."),
          ("carbon monoxide", "Exhaust gases contain carbon monoxide: never run the machine indoors."),
          ("mains", "Disconnect the mains plug before opening any cover.")]
SAFETY_SHARE = [0.3, 0.2, 0.9]


def filler(lang: str, rng: random.Random) -> str:
    """A general paragraph of the kind (boilerplate) that contracts repeat: words every contract shares."""
    if lang == "de":
        return rng.choice(["Änderungen und Ergänzungen dieses Vertrages bedürfen der Schriftform.",
                           "Sollte eine Bestimmung unwirksam sein, bleibt der Vertrag im Übrigen wirksam.",
                           "Die Parteien arbeiten vertrauensvoll zusammen und benennen je einen Ansprechpartner."])
    if lang == "ru":
        return rng.choice(["Изменения и дополнения к договору действительны в письменной форме.",
                           "Стороны назначают ответственных лиц для оперативного взаимодействия.",
                           "Все приложения к договору являются его неотъемлемой частью."])
    return rng.choice([("No variation of this Agreement is effective unless it is in writing and signed by both "
                       "parties."), ("Each party shall appoint a contract manager who attends the monthly review "
                       "meeting."), ("Notices shall be delivered by hand or sent by recorded delivery to the "
                       "registered office of the receiving party."), ("If any provision is held invalid, the "
                       "remaining provisions continue in full force.")])
