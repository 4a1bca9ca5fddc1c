"""The words of the table bench's documents (bench/table_documents*.py), by language: prose to set
around the tables, and the rows of financial statements, results tables, invoices, logs and wide
quarterly tables. English and German feed the "tune" half, French and Russian the "report" half;
Chinese and Japanese give each half a CJK table.
"""

from __future__ import annotations

import random

PROSE = {
    "en": ["The board reviewed the results of the year at its meeting in March.",
           "Revenue grew in every region except the north, where two branches closed.",
           "Margins improved as the cost of raw materials fell in the second half.",
           "The group invested in new production lines and in the training of its staff.",
           "Cash generated from operations covered the dividend and the planned capital spending.",
           "Management expects demand to stay firm, although energy prices remain a risk.",
           "Figures are stated in thousands of euros unless a note says otherwise.",
           "Comparative amounts have been restated for the sale of the packaging business.",
           "The audit committee met five times and reported to the board after each meeting.",
           "Employees in all countries were offered the share purchase plan on equal terms."],
    "de": ["Der Vorstand hat die Ergebnisse des Geschäftsjahres im März geprüft.",
           "Der Umsatz stieg in allen Regionen außer im Norden, wo zwei Filialen schlossen.",
           "Die Marge verbesserte sich, weil die Rohstoffpreise im zweiten Halbjahr sanken.",
           "Die Gruppe investierte in neue Fertigungslinien und in die Schulung der Mitarbeiter.",
           "Der operative Cashflow deckte die Dividende und die geplanten Investitionen.",
           "Die Geschäftsführung erwartet eine stabile Nachfrage; die Energiepreise bleiben ein Risiko.",
           "Beträge in Tausend Euro, soweit nicht anders angegeben.",
           "Die Vorjahreszahlen wurden wegen des Verkaufs der Verpackungssparte angepasst.",
           "Bitte prüfen Sie die Rechnung und melden Sie Abweichungen innerhalb von acht Tagen.",
           "Die Lieferung erfolgte vollständig und ohne Beanstandungen."],
    "fr": ["Le conseil a examiné les résultats de l'exercice lors de sa séance de mars.",
           "Le chiffre d'affaires a progressé dans toutes les régions, sauf dans le nord.",
           "La marge s'est améliorée grâce à la baisse du coût des matières premières.",
           "Le groupe a investi dans de nouvelles lignes de production et dans la formation.",
           "La trésorerie d'exploitation a couvert le dividende et les investissements prévus.",
           "La direction s'attend à une demande soutenue, malgré le prix de l'énergie.",
           "Les montants sont exprimés en milliers d'euros, sauf mention contraire.",
           "Les chiffres comparatifs ont été retraités après la cession de l'activité emballage.",
           "Merci de vérifier la facture et de signaler tout écart sous huit jours.",
           "La livraison a été effectuée en totalité et sans réserve."],
    "ru": ["Совет директоров рассмотрел итоги года на заседании в марте.",
           "Выручка выросла во всех регионах, кроме северного, где закрылись два филиала.",
           "Маржа улучшилась благодаря снижению цен на сырьё во втором полугодии.",
           "Группа вложила средства в новые производственные линии и обучение персонала.",
           "Денежный поток от операций покрыл дивиденды и плановые капитальные вложения.",
           "Руководство ожидает устойчивого спроса, хотя цены на энергию остаются риском.",
           "Суммы указаны в тысячах рублей, если в примечании не сказано иное.",
           "Сравнительные данные пересчитаны после продажи упаковочного бизнеса.",
           "Просим проверить счёт и сообщить о расхождениях в течение восьми дней.",
           "Поставка выполнена полностью и без замечаний."],
    "zh": ["本公司在本年度继续扩大生产规模。", "各地区的销售额均有所增长。", "原材料价格在下半年有所下降。",
           "管理层预计明年需求保持稳定。", "以下为主要产品的价格与数量。", "金额单位为人民币元。"],
    "ja": ["当社は本年度も生産規模を拡大しました。", "すべての地域で売上高が増加しました。",
           "原材料の価格は下期に低下しました。", "経営陣は来年も需要が安定すると見ています。",
           "主な製品の価格と数量は次のとおりです。", "金額の単位は円です。"],
}

HEADINGS = {
    "en": ("Annual report 2024", "Consolidated income statement", "Results", "Invoice", "Maintenance log",
           "Quarterly sales by region", "Notes to the accounts", "What to bring", "Contact"),
    "de": ("Geschäftsbericht 2024", "Konzern-Gewinn- und Verlustrechnung", "Ergebnisse", "Rechnung",
           "Wartungsprotokoll", "Quartalsumsatz nach Regionen", "Erläuterungen", "Mitzubringen", "Kontakt"),
    "fr": ("Rapport annuel 2024", "Compte de résultat consolidé", "Résultats", "Facture", "Journal de maintenance",
           "Ventes trimestrielles par région", "Notes annexes", "À apporter", "Contact"),
    "ru": ("Годовой отчёт 2024", "Консолидированный отчёт о прибылях и убытках", "Результаты", "Счёт",
           "Журнал обслуживания", "Продажи по регионам и кварталам", "Примечания", "Что взять с собой", "Контакты"),
}

# (label, level): level 0 a line of its own, 1 an indented sub-row; None marks a heading row with no figures
STATEMENT = {
    "en": [("Revenue", None), ("Product sales", 1), ("Services", 1), ("Cost of sales", 0), ("Gross profit", 0),
           ("Operating expenses", None), ("Selling and distribution", 1), ("Administrative expenses", 1),
           ("Operating profit", 0), ("Net finance costs", 0), ("Profit before tax", 0)],
    "de": [("Umsatzerlöse", None), ("Produktverkäufe", 1), ("Dienstleistungen", 1), ("Herstellungskosten", 0),
           ("Bruttoergebnis", 0), ("Betriebliche Aufwendungen", None), ("Vertriebskosten", 1),
           ("Verwaltungskosten", 1), ("Betriebsergebnis", 0), ("Finanzergebnis", 0), ("Ergebnis vor Steuern", 0)],
    "fr": [("Chiffre d'affaires", None), ("Ventes de produits", 1), ("Services", 1), ("Coût des ventes", 0),
           ("Marge brute", 0), ("Charges d'exploitation", None), ("Frais commerciaux", 1),
           ("Frais administratifs", 1), ("Résultat opérationnel", 0), ("Résultat financier", 0),
           ("Résultat avant impôt", 0)],
    "ru": [("Выручка", None), ("Продажа продукции", 1), ("Услуги", 1), ("Себестоимость продаж", 0),
           ("Валовая прибыль", 0), ("Операционные расходы", None), ("Коммерческие расходы", 1),
           ("Управленческие расходы", 1), ("Операционная прибыль", 0), ("Финансовые расходы", 0),
           ("Прибыль до налогообложения", 0)],
}
NOTE = {"en": "Note", "de": "Anhang", "fr": "Note", "ru": "Прим."}

INVOICE = {
    "en": (["Invoice no.", "Date", "Customer no.", "Due date"], ["Pos.", "Description", "Qty", "Unit price", "Amount"],
           ["Ball bearing 6204", "Drive belt, 1,250 mm", "Service visit", "Hydraulic oil, 20 l", "Filter set"],
           ["Subtotal", "VAT 20%", "Total due"]),
    "de": (["Rechnungsnr.", "Datum", "Kundennr.", "Fällig am"],
           ["Pos.", "Bezeichnung", "Menge", "Einzelpreis", "Betrag"],
           ["Kugellager 6204", "Antriebsriemen, 1.250 mm", "Servicebesuch", "Hydrauliköl, 20 l", "Filtersatz"],
           ["Zwischensumme", "MwSt. 19 %", "Gesamtbetrag"]),
    "fr": (["Facture n°", "Date", "Client n°", "Échéance"], ["Pos.", "Désignation", "Qté", "Prix unitaire", "Montant"],
           ["Roulement 6204", "Courroie, 1 250 mm", "Intervention", "Huile hydraulique, 20 l", "Jeu de filtres"],
           ["Sous-total", "TVA 20 %", "Total à payer"]),
    "ru": (["Счёт №", "Дата", "Клиент №", "Оплатить до"], ["№", "Наименование", "Кол-во", "Цена", "Сумма"],
           ["Подшипник 6204", "Приводной ремень", "Выезд сервиса", "Гидравлическое масло", "Комплект фильтров"],
           ["Итого без НДС", "НДС 20 %", "Всего к оплате"]),
}

LOG = {
    "en": (["Date", "Machine", "Check", "Result", "Signed"], ["Press 1", "Lathe 4", "Mill 2", "Saw 3"],
           ["Oil level", "Belt tension", "Safety guard", "Coolant"], ["ok", "worn", "replaced"]),
    "de": (["Datum", "Maschine", "Prüfung", "Ergebnis", "Zeichen"], ["Presse 1", "Drehbank 4", "Fräse 2", "Säge 3"],
           ["Ölstand", "Riemenspannung", "Schutzhaube", "Kühlmittel"], ["i. O.", "verschlissen", "ersetzt"]),
    "fr": (["Date", "Machine", "Contrôle", "Résultat", "Visa"], ["Presse 1", "Tour 4", "Fraiseuse 2", "Scie 3"],
           ["Niveau d'huile", "Tension courroie", "Carter", "Liquide de coupe"], ["conforme", "usé", "remplacé"]),
    "ru": (["Дата", "Станок", "Проверка", "Результат", "Подпись"], ["Пресс 1", "Токарный 4", "Фрезерный 2", "Пила 3"],
           ["Уровень масла", "Натяжение ремня", "Защитный кожух", "СОЖ"], ["норма", "износ", "заменён"]),
}

REGIONS = {
    "en": ["North", "South", "East", "West", "Central", "Overseas", "Online"],
    "de": ["Nord", "Süd", "Ost", "West", "Mitte", "Übersee", "Online"],
    "fr": ["Nord", "Sud", "Est", "Ouest", "Centre", "Outre-mer", "En ligne"],
    "ru": ["Север", "Юг", "Восток", "Запад", "Центр", "Зарубежье", "Интернет"],
}
REGION = {"en": "Region", "de": "Region", "fr": "Région", "ru": "Регион"}
CHANGE = {"en": "Change %", "de": "Veränd. %", "fr": "Var. %", "ru": "Изм. %"}

BULLETS = {
    "en": ["Your invitation letter and an identity card", "The signed consent form (page 4)",
           "A list of the medicines you take", "Comfortable shoes: the tour of the site takes an hour"],
    "de": ["Das Einladungsschreiben und einen Ausweis", "Die unterschriebene Einwilligung (Seite 4)",
           "Eine Liste Ihrer Medikamente", "Bequeme Schuhe: der Rundgang dauert eine Stunde"],
    "fr": ["La lettre d'invitation et une pièce d'identité", "Le formulaire de consentement signé (page 4)",
           "La liste de vos médicaments", "Des chaussures confortables : la visite dure une heure"],
    "ru": ["Приглашение и удостоверение личности", "Подписанное согласие (страница 4)",
           "Список принимаемых лекарств", "Удобную обувь: экскурсия длится час"],
}
CONTACT = {
    "en": [("Office", "Building C, room 214"), ("Phone", "+44 20 7946 0321"), ("Hours", "Mon-Fri 8:00-16:30"),
           ("Reference", "VIS-2024-118")],
    "de": [("Büro", "Gebäude C, Raum 214"), ("Telefon", "+49 30 901820"), ("Zeiten", "Mo-Fr 8:00-16:30"),
           ("Aktenzeichen", "BES-2024-118")],
    "fr": [("Bureau", "Bâtiment C, salle 214"), ("Téléphone", "+33 1 42 68 53 00"), ("Horaires", "lun.-ven. 8h-16h30"),
           ("Référence", "VIS-2024-118")],
    "ru": [("Кабинет", "Корпус C, комната 214"), ("Телефон", "+7 495 123-45-67"), ("Часы", "Пн-Пт 8:00-16:30"),
           ("Номер", "ПОС-2024-118")],
}

PAPER_HEADER = ["Method", "Precision", "Recall", "F1", "Time (s)"]
PAPER_METHODS = ["Rule-based", "CRF", "BiLSTM", "BiLSTM-CRF", "Transformer", "Ours (small)", "Ours (large)"]

CJK_TABLES = {
    "zh": (["产品", "型号", "数量", "单价", "金额"], ["轴承", "皮带", "液压油", "过滤器", "电机", "阀门"]),
    "ja": (["品名", "型番", "数量", "単価", "金額"], ["軸受", "ベルト", "作動油", "フィルター", "モーター", "バルブ"]),
}


def paragraph(rng: random.Random, language: str, sentences: int) -> str:
    pool = PROSE[language]
    joiner = "" if language in ("zh", "ja") else " "
    return joiner.join(rng.sample(pool, min(sentences, len(pool))))


def thousands(value: int, language: str, sep: str | None = None) -> str:
    """An amount as the language's statements print it: thousands grouped, negatives in parentheses."""
    sep = sep if sep is not None else {"en": ",", "de": ".", "fr": "\u202f", "ru": "\u00a0"}[language]
    text = f"{abs(value):,}".replace(",", sep)
    return f"({text})" if value < 0 else text


def money(value: float, language: str) -> str:
    text = f"{value:,.2f}"
    if language in ("de",):
        return text.replace(",", "_").replace(".", ",").replace("_", ".")
    if language in ("fr", "ru"):
        return text.replace(",", "\u00a0").replace(".", ",")
    return text


def statement_grid(rng: random.Random, language: str, years: tuple[str, str]) -> tuple[list[list[str]], list[int]]:
    """A statement's rows (label, note, this year, last year) and each row's indent level."""
    grid = [["", NOTE[language], *years]]
    levels = [0]
    for index, (label, level) in enumerate(STATEMENT[language]):
        if level is None:
            grid.append([label, "", "", ""])
            levels.append(0)
            continue
        negative = index in (3, 6, 7, 9)
        values = [rng.randint(800, 48000) * (-1 if negative else 1) for _ in years]
        note = str(rng.randint(3, 19)) if rng.random() < 0.5 else ""
        grid.append([label, note, *(thousands(value, language) for value in values)])
        levels.append(level)
    return grid, levels


def paper_grid(rng: random.Random, rows: int) -> list[list[str]]:
    grid = [list(PAPER_HEADER)]
    for method in rng.sample(PAPER_METHODS, rows):
        p, r = rng.uniform(60, 95), rng.uniform(55, 95)
        grid.append([method, f"{p:.1f}", f"{r:.1f}", f"{2 * p * r / (p + r):.1f}", f"{rng.uniform(0.1, 99):.2f}"])
    return grid


def invoice_grid(rng: random.Random, language: str, items: int) -> tuple[list[list[str]], list[tuple[str, str]]]:
    """Line items with the totals block as rows under the last two columns, and the key-value header."""
    labels, header, names, total_labels = INVOICE[language]
    grid, subtotal = [list(header)], 0.0
    for index, name in enumerate(rng.sample(names, items)):
        quantity, price = rng.randint(1, 40), rng.uniform(2, 900)
        subtotal += quantity * price
        grid.append([str(index + 1), name, str(quantity), money(price, language), money(quantity * price, language)])
    rate = 0.19 if language == "de" else 0.2
    for label, value in zip(total_labels, (subtotal, subtotal * rate, subtotal * (1 + rate)), strict=True):
        grid.append(["", "", "", label, money(value, language)])
    number = f"{rng.randint(2024000, 2024999)}"
    values = [number, f"{rng.randint(1, 28):02d}.0{rng.randint(1, 9)}.2024", f"K-{rng.randint(1000, 9999)}",
              f"{rng.randint(1, 28):02d}.1{rng.randint(0, 2)}.2024"]
    return grid, list(zip(labels, values, strict=True))


def log_grid(rng: random.Random, language: str, rows: int) -> list[list[str]]:
    """A maintenance log in which some checks were not done or not signed: empty cells."""
    header, machines, checks, results = LOG[language]
    grid = [list(header)]
    for index in range(rows):
        date = f"{index + 3:02d}.0{rng.randint(1, 9)}.2024"
        result = rng.choice(results) if index % 3 != 1 else ""
        signed = rng.choice(["JM", "AK", "PL", ""]) if result else ""
        grid.append([date, rng.choice(machines), rng.choice(checks) if index % 4 != 2 else "", result, signed])
    return grid


def wide_grid(rng: random.Random, language: str) -> list[list[str]]:
    quarters = ["Q1 2023", "Q2 2023", "Q3 2023", "Q4 2023", "Q1 2024", "Q2 2024"]
    grid = [[REGION[language], *quarters, CHANGE[language]]]
    for region in REGIONS[language]:
        values = [rng.randint(900, 99000) for _ in quarters]
        change = (values[-1] - values[-5]) / values[-5] * 100
        # German technical tables group digits with a thin space (DIN 1333), as French and Russian do
        sep = "\u202f" if language == "de" else None
        grid.append([region, *(thousands(value, language, sep) for value in values), f"{change:+.1f}"])
    return grid


def cjk_grid(rng: random.Random, language: str, rows: int) -> list[list[str]]:
    header, names = CJK_TABLES[language]
    grid = [list(header)]
    for name in rng.sample(names, rows):
        quantity, price = rng.randint(1, 500), rng.randint(20, 9000)
        grid.append([name, f"{rng.choice('ABCKX')}-{rng.randint(10, 999)}", str(quantity), f"{price:,}",
                     f"{quantity * price:,}"])
    return grid
