"""Documents and known-item queries for a library (collection) search benchmark: 100 to 10,000 PDFs.

A real library is not a handful of manuals: it is a case file of hundreds of similar contracts, a
folder of invoice batches, the manuals of one product in many revisions. A query's words then occur
in many documents and the ranking across documents decides whether the page a user remembers comes
first. This module writes such a library at the scale users have (10,000 documents are about
110,000 pages) in four scripts:

  latin     English and German      cyrillic  Russian
  cjk       Chinese and Japanese    arabic    Arabic and Persian

Three kinds of documents, in every language where they make sense:

  manual    the hand-written relevance-corpus documents (bench/relevance_corpus_*.py) as product
            families: many revisions and excerpts of the same manual share its chapter titles and
            its filler statements (relevance_corpus_filler.py). Each hand-written page is placed in
            exactly one document of its family, and its `k:` queries are known-item queries. For
            every such query two "near-miss" paragraphs (the page's paragraph with one query word
            swapped) go into other pages of the family, as older revisions of a page would, so that
            every query word also occurs elsewhere and only the combination is unique.
  invoice   a batch of incoming invoices, one per page, from a pool of suppliers and items: the
            query is the supplier and two items ("hartung stretchfolie kabelbinder").
  contract  lease agreements: parties and premises, clauses, special agreements, signatures, then
            annexes (inventory, house rules, handover record) up to the document's length: the
            query is the tenant, street and kind of premises (page 1) or the tenant and a special
            agreement (the page where it is written).

Generated targets are kept unique by construction (a target's supplier/item or tenant/clause
combination is reserved and never drawn for another page), and after writing every query whose
words all occur on any other page of the library is dropped, with words compared as a search engine
with light stemming would (first five letters; Arabic without a leading article or conjunction;
Chinese and Japanese by character bigrams). About one query per ten documents is kept (at least 30
per script), half of them from hand-written pages where the script has enough.

Speed: pages are written as raw content streams into a per-language template PDF whose fonts are
installed (and, for DejaVu, subset to the script's characters) once per process: base-14 Helvetica
for Latin, non-embedded Adobe CJK fonts (UTF-16 CMaps, as ReportLab writes them) for Chinese and
Japanese, an embedded DejaVu Sans subset with Identity-H glyph ids for Cyrillic and Arabic (Arabic
shaped into presentation forms by relevance_corpus.shape, each line laid out right to left in runs).
That is several hundred pages/s per core, where TextWriter/insert_text manage about 100.

    python -m bench.library_corpus FOLDER DOCUMENTS [--seed 7] [--check]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import sys
import time
import unicodedata
import zlib
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import pymupdf  # noqa: E402 - after the repository root is on the path, as for the bench modules below


def _import_relevance_corpus() -> tuple[ModuleType, ModuleType]:
    """The relevance corpus modules, without the side effect that their import has on PDFDESK_HOME
    (bench/heading_bench.py, which relevance_corpus imports, points it at a new temporary folder)."""
    before = os.environ.get("PDFDESK_HOME")
    from bench import relevance_corpus, relevance_corpus_filler

    made = os.environ.get("PDFDESK_HOME")
    if made != before:
        if before is None:
            os.environ.pop("PDFDESK_HOME", None)
        else:
            os.environ["PDFDESK_HOME"] = before
        if made:
            try:
                os.rmdir(made)
            except OSError:
                pass
    return relevance_corpus, relevance_corpus_filler


_relevance, _filler = _import_relevance_corpus()
shape = _relevance.shape
filler_paragraph = _filler.paragraph

# Bumped whenever the output changes, so that a manifest of an older generator is not reused.
GENERATOR = "library-corpus-4"
MANIFEST = "library.json"

SCRIPTS = ("latin", "cyrillic", "cjk", "arabic")
SCRIPT_OF = {"en": "latin", "de": "latin", "ru": "cyrillic", "zh": "cjk", "ja": "cjk", "ar": "arabic",
             "fa": "arabic"}
# Share of the library per language: about 40 % Latin and 20 % for each other script.
LANG_SHARE = {"en": 0.25, "de": 0.15, "ru": 0.20, "zh": 0.10, "ja": 0.10, "ar": 0.15, "fa": 0.05}
# Share of each language's documents per kind (Persian has only its manual family).
KIND_SHARE = {"manual": 0.4, "invoice": 0.3, "contract": 0.3}
GENERATED_LANGS = ("en", "de", "ru", "zh", "ja", "ar")


@dataclass(frozen=True)
class LibraryQuery:
    text: str        # what the user types
    path: Path       # the document whose page answers it
    page: int        # 1-based
    script: str      # "latin" | "cyrillic" | "cjk" | "arabic"
    half: str        # "tune" | "report": a stable split by document (hash of the file name)


# ================================================================================================
# Words of the generated documents
#
# Pools are per language and written as people in that language write them; each item, supplier,
# street, premises and special agreement has a "key": the words a user would type for it, all of
# which occur in its text.

MONTHS = {
    "en": ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December"],
    "de": ["Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober",
           "November", "Dezember"],
    "ru": ["января", "февраля", "марта", "апреля", "мая", "июня", "июля", "августа", "сентября", "октября",
           "ноября", "декабря"],
    "ar": ["يناير", "فبراير", "مارس", "أبريل", "مايو", "يونيو", "يوليو", "أغسطس", "سبتمبر", "أكتوبر", "نوفمبر",
           "ديسمبر"],
}
MONTH_TITLE = {"ru": ["январь", "февраль", "март", "апрель", "май", "июнь", "июль", "август", "сентябрь",
                      "октябрь", "ноябрь", "декабрь"]}


def date_text(lang: str, year: int, month: int, day: int) -> str:
    if lang == "en":
        return f"{day} {MONTHS['en'][month - 1]} {year}"
    if lang == "de":
        return f"{day}. {MONTHS['de'][month - 1]} {year}"
    if lang == "ru":
        return f"{day} {MONTHS['ru'][month - 1]} {year} г."
    if lang in ("zh", "ja"):
        return f"{year}年{month}月{day}日"
    return f"{day} {MONTHS['ar'][month - 1]} {year}"


def money(lang: str, value: float) -> str:
    whole, cents = divmod(round(value * 100), 100)
    if lang == "en":
        return f"£{whole:,}.{cents:02d}"
    if lang == "de":
        return f"{whole:,}".replace(",", ".") + f",{cents:02d} €"
    if lang == "ru":
        return f"{whole:,}".replace(",", " ") + f",{cents:02d} руб."
    if lang == "zh":
        return f"{whole:,}.{cents:02d}元"
    if lang == "ja":
        return f"{round(value * 10):,}円"  # yen prices are about ten times the pound ones, without decimals
    return f"{whole:,}.{cents:02d} ريال"


# --- invoices -----------------------------------------------------------------------------------

SUPPLIERS: dict[str, list[tuple[str, str]]] = {  # (name as printed, key)
    "en": [(f"{k.title()} {rest}", k) for k, rest in [
        ("hartmann", "Logistics Ltd"), ("pemberton", "Office Supplies"), ("alderley", "Electrical Services"),
        ("brightwater", "Cleaning Services"), ("castell", "Print Works"), ("dunmore", "Timber Merchants"),
        ("elgin", "Catering Company"), ("fairholme", "Plumbing & Heating"), ("greaves", "Hardware Ltd"),
        ("holloway", "Security Services"), ("ingram", "Packaging Ltd"), ("jessop", "Tools & Fixings"),
        ("kettering", "Fleet Services"), ("lomax", "Lighting Ltd"), ("marchbank", "Signs & Displays"),
        ("newbold", "Paints Ltd"), ("oakridge", "Office Furniture"), ("prescott", "IT Solutions"),
        ("quayle", "Laboratory Supplies"), ("rowntree", "Workwear Ltd"), ("sefton", "Waste Management"),
        ("thackeray", "Garden Care"), ("underhill", "Couriers Ltd"), ("wexford", "Heating Engineers")]],
    "de": [(f"{rest} {k.title()}", k) for k, rest in [
        ("hartung", "Spedition"), ("brenner", "Bürobedarf"), ("kühne", "Elektrotechnik"),
        ("lindner", "Gebäudereinigung"), ("vogelsang", "Druckerei"), ("eberhardt", "Holzhandel"),
        ("mahler", "Partyservice"), ("dietrich", "Sanitärtechnik"), ("kroll", "Eisenwaren"),
        ("falkner", "Wachdienst"), ("riedel", "Verpackungen"), ("gruber", "Werkzeughandel"),
        ("seidel", "Fuhrparkservice"), ("hofstetter", "Leuchten"), ("pohlmann", "Werbetechnik"),
        ("winkler", "Farbenhaus"), ("albrecht", "Büromöbel"), ("brandl", "Systemhaus"),
        ("kessler", "Laborbedarf"), ("lorenz", "Berufskleidung"), ("hübner", "Entsorgung"),
        ("ostermann", "Gartenpflege"), ("zeller", "Kurierdienst"), ("ramsauer", "Heiztechnik")]],
    "ru": [(f"ООО «{k.title()}»", k) for k in [
        "меридиан", "стройкомплект", "канцмир", "электросила", "блесклайн", "рубикон", "лесторг",
        "сантехпром", "метизторг", "барсгард", "упакпласт", "инструментал", "автолайн", "светодар",
        "рекламист", "колорит", "мебельград", "техносфера", "лабсервис", "спецформа", "экотранс",
        "садовод", "скороход", "теплосервис"]],
    "zh": [(f"{k}{rest}", k) for k, rest in [
        ("华信物流", "有限公司"), ("博文办公", "用品有限公司"), ("恒瑞电气", "工程有限公司"), ("洁美保洁", "服务有限公司"),
        ("金印印刷", "厂"), ("森源木业", "有限公司"), ("香满园餐饮", "管理有限公司"), ("安泰水暖", "工程部"),
        ("鑫达五金", "商行"), ("卫士安保", "服务有限公司"), ("瑞丰包装", "材料有限公司"), ("巧匠工具", "商行"),
        ("顺通车队", "运输有限公司"), ("耀辉灯饰", "有限公司"), ("创意标识", "制作有限公司"), ("彩虹涂料", "有限公司"),
        ("雅居家具", "有限公司"), ("智联科技", "有限公司"), ("精诚实验", "器材有限公司"), ("衣锦工装", "服饰有限公司"),
        ("绿洲环保", "科技有限公司"), ("青松园林", "绿化有限公司"), ("飞鸿快递", "有限公司"), ("暖阳供热", "设备有限公司")]],
    "ja": [(f"{pre}{k}{rest}", k) for pre, k, rest in [
        ("株式会社", "東和物流", ""), ("有限会社", "文栄堂", ""), ("", "北斗電設", "株式会社"), ("株式会社", "白光クリーン", ""),
        ("", "旭日印刷", "株式会社"), ("", "杉本木材", "店"), ("株式会社", "彩食ケータリング", ""), ("", "水野設備", "工業株式会社"),
        ("", "丸金金物", "店"), ("", "日輪警備", "保障株式会社"), ("", "三協パッケージ", "株式会社"), ("有限会社", "匠工具店", ""),
        ("", "桜田運輸", "株式会社"), ("", "明星照明", "株式会社"), ("", "青木看板", "工芸"), ("", "虹色塗料", "株式会社"),
        ("株式会社", "木楽家具", ""), ("株式会社", "蒼天システム", ""), ("", "精研ラボ", "株式会社"), ("", "高橋ユニフォーム", "株式会社"),
        ("", "緑環リサイクル", "株式会社"), ("", "松風造園", ""), ("", "疾風急便", "株式会社"), ("", "陽だまり暖房", "株式会社")]],
    "ar": [(f"{pre} {k} {rest}", k) for pre, k, rest in [
        ("مؤسسة", "الرواد", "للخدمات اللوجستية"), ("شركة", "السنابل", "للأدوات المكتبية"), ("مؤسسة", "البيان", "للأعمال الكهربائية"),
        ("شركة", "الأمانة", "لخدمات التنظيف"), ("مطبعة", "الصفوة", "الحديثة"), ("مؤسسة", "الريادة", "للأخشاب"),
        ("شركة", "النخبة", "للتموين والضيافة"), ("مؤسسة", "الوفاء", "للسباكة"), ("محلات", "الأصيل", "للعدد والأدوات"),
        ("شركة", "المنارة", "للحراسات الأمنية"), ("مصنع", "الرياحين", "للتغليف"), ("مؤسسة", "الينابيع", "للعدد الصناعية"),
        ("شركة", "القمة", "لخدمات الأساطيل"), ("شركة", "الفرسان", "للإنارة"), ("مؤسسة", "الواحة", "للوحات الإعلانية"),
        ("مصنع", "الشروق", "للدهانات"), ("معرض", "الأفق", "للأثاث المكتبي"), ("شركة", "الندى", "لحلول تقنية المعلومات"),
        ("مؤسسة", "الصقر", "للتجهيزات المخبرية"), ("مصنع", "الهلال", "للملابس المهنية"), ("شركة", "النسيم", "لإدارة النفايات"),
        ("مؤسسة", "الرافدين", "لتنسيق الحدائق"), ("شركة", "البراق", "للتوصيل السريع"), ("مؤسسة", "الدفء", "لأنظمة التدفئة")]],
}

ITEMS: dict[str, list[tuple[str, str, float]]] = {  # (description, key, unit price in pounds)
    "en": [
        ("Pallet wrap film, 500 mm x 300 m", "pallet wrap", 18.4), ("Cable ties, black, pack of 100", "cable ties", 4.95),
        ("Copy paper A4, 80 g, box of 5 reams", "copy paper", 23.5), ("Toner cartridge, black, high yield", "toner cartridge", 89.0),
        ("Safety gloves, nitrile, size L, box of 50", "safety gloves", 11.2), ("Reflective vest, yellow, size XL", "reflective vest", 6.5),
        ("LED panel light 600 x 600 mm, 40 W", "panel light", 42.0), ("Extension lead, 4 sockets, 5 m", "extension lead", 12.9),
        ("Door closer, adjustable, silver", "door closer", 38.0), ("Padlock, brass, 40 mm, keyed alike", "brass padlock", 9.8),
        ("Floor cleaner concentrate, 5 litres", "floor cleaner", 15.6), ("Paper towels, 2-ply, 24 rolls", "paper towels", 19.9),
        ("Coffee beans, 1 kg, medium roast", "coffee beans", 16.5), ("Whiteboard markers, assorted, pack of 4", "whiteboard markers", 5.2),
        ("Lever arch files, A4, blue, pack of 10", "lever arch files", 21.0), ("Shipping boxes, double wall, 20 pieces", "shipping boxes", 27.5),
        ("Bubble wrap, 750 mm x 100 m", "bubble wrap", 24.0), ("Masking tape, 25 mm, 6 rolls", "masking tape", 8.4),
        ("Drill bits, HSS, set of 19", "drill bits", 22.9), ("Wood screws, 4 x 40 mm, box of 200", "wood screws", 7.3),
        ("Wall plugs, 8 mm, pack of 100", "wall plugs", 4.1), ("Emulsion paint, white, 10 litres", "emulsion paint", 34.0),
        ("Paint rollers, 230 mm, set of 3", "paint rollers", 13.5), ("Fire extinguisher service, per unit", "extinguisher service", 14.0),
        ("First aid kit refill", "first aid refill", 17.8), ("Network cable Cat6, 3 m", "network cable", 3.9),
        ("USB keyboard, UK layout", "usb keyboard", 18.0), ("Wireless mouse, grey", "wireless mouse", 14.5),
        ("Monitor arm, dual, desk clamp", "monitor arm", 64.0), ("Office chair castors, set of 5", "chair castors", 12.0),
        ("Waste sacks, heavy duty, roll of 50", "waste sacks", 9.6), ("Hand soap refill, 5 litres", "hand soap", 11.9),
        ("Window cleaning, per visit", "window cleaning", 85.0), ("Boiler service, annual", "boiler service", 120.0),
        ("Thermostatic radiator valve", "radiator valve", 24.5), ("Lawn mowing, per visit", "lawn mowing", 45.0),
        ("Hedge trimming, per hour", "hedge trimming", 32.0), ("Courier delivery, same day", "courier delivery", 28.0),
        ("Van hire, per day", "van hire", 75.0), ("Diesel fuel, per litre", "diesel fuel", 1.52),
        ("Tyre replacement 205/55 R16", "tyre replacement", 96.0), ("Sandwich platter, serves 10", "sandwich platter", 39.0),
        ("Bottled water, 24 x 500 ml", "bottled water", 6.9)],
    "de": [
        ("Stretchfolie, 500 mm x 300 m", "stretchfolie", 18.4), ("Kabelbinder, schwarz, 100 Stück", "kabelbinder", 4.95),
        ("Kopierpapier A4, 80 g, 5 Pakete", "kopierpapier", 23.5), ("Tonerkartusche schwarz, hohe Reichweite", "tonerkartusche", 89.0),
        ("Schutzhandschuhe Nitril, Größe L, 50 Stück", "schutzhandschuhe", 11.2), ("Warnweste gelb, Größe XL", "warnweste", 6.5),
        ("LED-Panel 600 x 600 mm, 40 W", "led panel", 42.0), ("Verlängerungskabel, 4-fach, 5 m", "verlängerungskabel", 12.9),
        ("Türschließer, einstellbar, silber", "türschließer", 38.0), ("Vorhängeschloss Messing, 40 mm", "vorhängeschloss", 9.8),
        ("Bodenreiniger Konzentrat, 5 Liter", "bodenreiniger", 15.6), ("Papierhandtücher, 2-lagig, 24 Rollen", "papierhandtücher", 19.9),
        ("Kaffeebohnen, 1 kg, mittlere Röstung", "kaffeebohnen", 16.5), ("Whiteboard-Marker, sortiert, 4 Stück", "whiteboard marker", 5.2),
        ("Ordner A4, blau, 10 Stück", "ordner blau", 21.0), ("Versandkartons, zweiwellig, 20 Stück", "versandkartons", 27.5),
        ("Luftpolsterfolie, 750 mm x 100 m", "luftpolsterfolie", 24.0), ("Kreppband, 25 mm, 6 Rollen", "kreppband", 8.4),
        ("Bohrersatz HSS, 19-teilig", "bohrersatz", 22.9), ("Holzschrauben 4 x 40 mm, 200 Stück", "holzschrauben", 7.3),
        ("Dübel 8 mm, 100 Stück", "dübel", 4.1), ("Dispersionsfarbe weiß, 10 Liter", "dispersionsfarbe", 34.0),
        ("Farbroller 230 mm, 3er-Set", "farbroller", 13.5), ("Wartung Feuerlöscher, je Gerät", "wartung feuerlöscher", 14.0),
        ("Nachfüllset Verbandkasten", "verbandkasten", 17.8), ("Netzwerkkabel Cat6, 3 m", "netzwerkkabel", 3.9),
        ("USB-Tastatur, deutsches Layout", "tastatur", 18.0), ("Funkmaus, grau", "funkmaus", 14.5),
        ("Monitorhalterung, doppelt, Tischklemme", "monitorhalterung", 64.0), ("Stuhlrollen, 5er-Set", "stuhlrollen", 12.0),
        ("Müllsäcke, extra stark, 50 Stück", "müllsäcke", 9.6), ("Flüssigseife, Nachfüllung 5 Liter", "flüssigseife", 11.9),
        ("Glasreinigung, je Einsatz", "glasreinigung", 85.0), ("Heizungswartung, jährlich", "heizungswartung", 120.0),
        ("Thermostatventil für Heizkörper", "thermostatventil", 24.5), ("Rasenmähen, je Einsatz", "rasenmähen", 45.0),
        ("Heckenschnitt, je Stunde", "heckenschnitt", 32.0), ("Kurierfahrt, am selben Tag", "kurierfahrt", 28.0),
        ("Transportermiete, je Tag", "transportermiete", 75.0), ("Dieselkraftstoff, je Liter", "dieselkraftstoff", 1.52),
        ("Reifenwechsel 205/55 R16", "reifenwechsel", 96.0), ("Belegte Brötchen, Platte für 10 Personen", "belegte brötchen", 39.0),
        ("Mineralwasser, 24 x 0,5 l", "mineralwasser", 6.9)],
    "ru": [
        ("Плёнка стрейч, 500 мм x 300 м", "пленка стрейч", 18.4), ("Стяжки кабельные, чёрные, 100 шт.", "стяжки кабельные", 4.95),
        ("Бумага офисная A4, 80 г/м², 5 пачек", "бумага офисная", 23.5), ("Картридж тонерный, чёрный", "картридж тонерный", 89.0),
        ("Перчатки нитриловые, размер L, 50 пар", "перчатки нитриловые", 11.2), ("Жилет сигнальный, жёлтый", "жилет сигнальный", 6.5),
        ("Светильник светодиодный 600 x 600 мм, 40 Вт", "светильник светодиодный", 42.0), ("Удлинитель на 4 розетки, 5 м", "удлинитель розетки", 12.9),
        ("Доводчик дверной, серебристый", "доводчик дверной", 38.0), ("Замок навесной латунный, 40 мм", "замок навесной", 9.8),
        ("Средство для мытья полов, 5 л", "мытья полов", 15.6), ("Полотенца бумажные, 24 рулона", "полотенца бумажные", 19.9),
        ("Кофе зерновой, 1 кг, средней обжарки", "кофе зерновой", 16.5), ("Маркеры для доски, 4 цвета", "маркеры доски", 5.2),
        ("Папка-регистратор A4, синяя, 10 шт.", "папка регистратор", 21.0), ("Коробки картонные, 20 шт.", "коробки картонные", 27.5),
        ("Плёнка воздушно-пузырьковая, 100 м", "воздушно пузырьковая", 24.0), ("Лента малярная, 25 мм, 6 рулонов", "лента малярная", 8.4),
        ("Набор свёрл по металлу, 19 шт.", "набор сверл", 22.9), ("Саморезы по дереву 4 x 40 мм, 200 шт.", "саморезы дереву", 7.3),
        ("Дюбели 8 мм, 100 шт.", "дюбели", 4.1), ("Краска водоэмульсионная белая, 10 л", "краска водоэмульсионная", 34.0),
        ("Валик малярный 230 мм", "валик малярный", 13.5), ("Перезарядка огнетушителя", "перезарядка огнетушителя", 14.0),
        ("Аптечка первой помощи, пополнение", "аптечка пополнение", 17.8), ("Кабель сетевой Cat6, 3 м", "кабель сетевой", 3.9),
        ("Клавиатура USB, русская раскладка", "клавиатура раскладка", 18.0), ("Мышь беспроводная, серая", "мышь беспроводная", 14.5),
        ("Кронштейн для двух мониторов", "кронштейн мониторов", 64.0), ("Колёса для офисного кресла, 5 шт.", "колеса кресла", 12.0),
        ("Мешки для мусора, 120 л, 50 шт.", "мешки мусора", 9.6), ("Мыло жидкое, 5 л", "мыло жидкое", 11.9),
        ("Мойка окон, за выезд", "мойка окон", 85.0), ("Обслуживание котла, годовое", "обслуживание котла", 120.0),
        ("Терморегулятор радиаторный", "терморегулятор", 24.5), ("Покос травы, за выезд", "покос травы", 45.0),
        ("Стрижка живой изгороди, за час", "живой изгороди", 32.0), ("Курьерская доставка в день заказа", "курьерская доставка", 28.0),
        ("Аренда фургона, сутки", "аренда фургона", 75.0), ("Дизельное топливо, литр", "дизельное топливо", 1.52),
        ("Шиномонтаж 205/55 R16", "шиномонтаж", 96.0), ("Канапе, сет на 10 персон", "канапе", 39.0),
        ("Вода питьевая, 24 x 0,5 л", "вода питьевая", 6.9)],
    "zh": [
        ("缠绕膜 500毫米x300米", "缠绕膜", 18.4), ("尼龙扎带 黑色 100根", "尼龙扎带", 4.95), ("复印纸 A4 80克 5包", "复印纸", 23.5),
        ("黑色硒鼓 高容量", "硒鼓", 89.0), ("丁腈手套 L号 50只", "丁腈手套", 11.2), ("反光背心 黄色 XL", "反光背心", 6.5),
        ("LED平板灯 600x600 40W", "平板灯", 42.0), ("四位插线板 5米", "插线板", 12.9), ("液压闭门器 银色", "闭门器", 38.0),
        ("铜挂锁 40毫米", "铜挂锁", 9.8), ("地面清洁剂 5升", "地面清洁剂", 15.6), ("擦手纸 双层 24卷", "擦手纸", 19.9),
        ("咖啡豆 1千克 中度烘焙", "咖啡豆", 16.5), ("白板笔 四色装", "白板笔", 5.2), ("档案夹 A4 蓝色 10个", "档案夹", 21.0),
        ("双瓦楞纸箱 20个", "瓦楞纸箱", 27.5), ("气泡膜 750毫米x100米", "气泡膜", 24.0), ("美纹纸胶带 25毫米 6卷", "美纹纸", 8.4),
        ("高速钢钻头套装 19件", "钻头套装", 22.9), ("木螺钉 4x40毫米 200个", "木螺钉", 7.3), ("塑料膨胀管 8毫米 100个", "膨胀管", 4.1),
        ("白色乳胶漆 10升", "乳胶漆", 34.0), ("滚筒刷 230毫米 3把", "滚筒刷", 13.5), ("灭火器年检 每具", "灭火器年检", 14.0),
        ("急救箱补充装", "急救箱", 17.8), ("六类网线 3米", "六类网线", 3.9), ("USB有线键盘", "有线键盘", 18.0),
        ("无线鼠标 灰色", "无线鼠标", 14.5), ("双屏显示器支架", "显示器支架", 64.0), ("办公椅脚轮 5个", "椅脚轮", 12.0),
        ("加厚垃圾袋 50只", "垃圾袋", 9.6), ("洗手液补充装 5升", "洗手液", 11.9), ("玻璃清洗服务 每次", "玻璃清洗", 85.0),
        ("锅炉保养 年度", "锅炉保养", 120.0), ("散热器温控阀", "温控阀", 24.5), ("草坪修剪 每次", "草坪修剪", 45.0),
        ("绿篱修剪 每小时", "绿篱修剪", 32.0), ("同城急送 当日达", "同城急送", 28.0), ("厢式货车租赁 每天", "货车租赁", 75.0),
        ("柴油 每升", "柴油", 1.52), ("轮胎更换 205/55 R16", "轮胎更换", 96.0), ("会议茶歇点心 10人份", "茶歇点心", 39.0),
        ("瓶装饮用水 24x500毫升", "瓶装饮用水", 6.9)],
    "ja": [
        ("ストレッチフィルム 500mm x 300m", "ストレッチフィルム", 18.4), ("結束バンド 黒 100本入", "結束バンド", 4.95),
        ("コピー用紙 A4 80g 5冊", "コピー用紙", 23.5), ("トナーカートリッジ 黒 大容量", "トナーカートリッジ", 89.0),
        ("ニトリル手袋 Lサイズ 50枚入", "ニトリル手袋", 11.2), ("安全ベスト 黄 XL", "安全ベスト", 6.5),
        ("LEDベースライト 600x600mm 40W", "ベースライト", 42.0), ("延長コード 4個口 5m", "延長コード", 12.9),
        ("ドアクローザー 銀色", "ドアクローザー", 38.0), ("真鍮南京錠 40mm", "南京錠", 9.8), ("床用洗剤 濃縮 5L", "床用洗剤", 15.6),
        ("ペーパータオル 24ロール", "ペーパータオル", 19.9), ("コーヒー豆 1kg 中煎り", "コーヒー豆", 16.5),
        ("ホワイトボードマーカー 4色セット", "ホワイトボードマーカー", 5.2), ("フラットファイル A4 青 10冊", "フラットファイル", 21.0),
        ("段ボール箱 20枚", "段ボール箱", 27.5), ("気泡緩衝材 750mm x 100m", "気泡緩衝材", 24.0),
        ("マスキングテープ 25mm 6巻", "マスキングテープ", 8.4), ("ドリルビットセット 19本組", "ドリルビット", 22.9),
        ("木ネジ 4x40mm 200本", "木ネジ", 7.3), ("アンカープラグ 8mm 100本", "アンカープラグ", 4.1),
        ("水性塗料 白 10L", "水性塗料", 34.0), ("ペイントローラー 230mm 3本", "ペイントローラー", 13.5),
        ("消火器点検 1本あたり", "消火器点検", 14.0), ("救急箱 補充セット", "救急箱", 17.8), ("LANケーブル Cat6 3m", "LANケーブル", 3.9),
        ("USBキーボード 日本語配列", "USBキーボード", 18.0), ("ワイヤレスマウス グレー", "ワイヤレスマウス", 14.5),
        ("デュアルモニターアーム", "モニターアーム", 64.0), ("チェアキャスター 5個", "チェアキャスター", 12.0),
        ("ゴミ袋 45L 50枚", "ゴミ袋", 9.6), ("ハンドソープ 詰替 5L", "ハンドソープ", 11.9), ("窓ガラス清掃 1回", "窓ガラス清掃", 85.0),
        ("ボイラー点検 年次", "ボイラー点検", 120.0), ("サーモスタット弁", "サーモスタット弁", 24.5), ("芝刈り作業 1回", "芝刈り", 45.0),
        ("生垣剪定 1時間", "生垣剪定", 32.0), ("当日配送便", "当日配送", 28.0), ("トラックレンタル 1日", "トラックレンタル", 75.0),
        ("軽油 1リットル", "軽油", 1.52), ("タイヤ交換 205/55 R16", "タイヤ交換", 96.0), ("会議用軽食 10名分", "会議用軽食", 39.0),
        ("ペットボトル水 24本", "ペットボトル水", 6.9)],
    "ar": [
        ("لفائف تغليف بلاستيكية 500 مم", "لفائف تغليف", 18.4), ("أربطة كابلات سوداء 100 قطعة", "أربطة كابلات", 4.95),
        ("ورق تصوير A4 وزن 80 غ", "ورق تصوير", 23.5), ("خرطوشة حبر سوداء عالية السعة", "خرطوشة حبر", 89.0),
        ("قفازات نتريل مقاس L", "قفازات نتريل", 11.2), ("سترة عاكسة صفراء", "سترة عاكسة", 6.5),
        ("لوحة إضاءة LED مقاس 600 مم", "لوحة إضاءة", 42.0), ("وصلة كهرباء بأربعة مقابس", "وصلة كهرباء", 12.9),
        ("جهاز غلق أبواب هيدروليكي", "غلق أبواب", 38.0), ("قفل نحاسي 40 مم", "قفل نحاسي", 9.8),
        ("منظف أرضيات مركز 5 لتر", "منظف أرضيات", 15.6), ("مناشف ورقية 24 لفة", "مناشف ورقية", 19.9),
        ("حبوب قهوة محمصة 1 كغ", "حبوب قهوة", 16.5), ("أقلام سبورة بيضاء أربعة ألوان", "أقلام سبورة", 5.2),
        ("ملفات حفظ زرقاء 10 قطع", "ملفات حفظ", 21.0), ("صناديق كرتون مزدوجة 20 قطعة", "صناديق كرتون", 27.5),
        ("غلاف فقاعي 100 متر", "غلاف فقاعي", 24.0), ("شريط لاصق ورقي 6 لفات", "شريط لاصق", 8.4),
        ("طقم مثاقب معدنية 19 قطعة", "طقم مثاقب", 22.9), ("براغي خشب 200 قطعة", "براغي خشب", 7.3),
        ("خوابير جدار 8 مم", "خوابير جدار", 4.1), ("طلاء مائي أبيض 10 لتر", "طلاء مائي", 34.0),
        ("بكرات دهان 230 مم", "بكرات دهان", 13.5), ("فحص طفايات الحريق للقطعة", "طفايات الحريق", 14.0),
        ("عبوة تعبئة حقيبة الإسعافات", "حقيبة الإسعافات", 17.8), ("كابل شبكة Cat6 طول 3 م", "كابل شبكة", 3.9),
        ("لوحة مفاتيح USB عربية", "لوحة مفاتيح", 18.0), ("فأرة لاسلكية رمادية", "فأرة لاسلكية", 14.5),
        ("حامل شاشتين مكتبي", "حامل شاشتين", 64.0), ("عجلات كرسي مكتب 5 قطع", "عجلات كرسي", 12.0),
        ("أكياس نفايات سميكة 50 كيسا", "أكياس نفايات", 9.6), ("صابون سائل لليدين 5 لتر", "صابون سائل", 11.9),
        ("تنظيف الواجهات الزجاجية للزيارة", "الواجهات الزجاجية", 85.0), ("صيانة سنوية للغلاية", "صيانة الغلاية", 120.0),
        ("صمام حراري للمشعاع", "صمام حراري", 24.5), ("قص العشب للزيارة", "قص العشب", 45.0),
        ("تقليم الشجيرات للساعة", "تقليم الشجيرات", 32.0), ("توصيل سريع في اليوم نفسه", "توصيل سريع", 28.0),
        ("استئجار شاحنة صغيرة لليوم", "استئجار شاحنة", 75.0), ("وقود ديزل للتر", "وقود ديزل", 1.52),
        ("تبديل إطارات 205/55 R16", "تبديل إطارات", 96.0), ("مقبلات للاجتماعات لعشرة أشخاص", "مقبلات للاجتماعات", 39.0),
        ("مياه معبأة 24 عبوة", "مياه معبأة", 6.9)],
}

CUSTOMERS = {
    "en": ["Northwind Trading Ltd", "Harbour View Housing Association", "St Aidan's Primary School",
           "Kingsley Dental Practice", "Millbrook Community Centre", "Redfern Architects LLP"],
    "de": ["Stadtwerke Lindenau GmbH", "Praxis Dr. Bergmann", "Grundschule am Mühlbach", "Wohnbau Nordstadt eG",
           "Architekturbüro Sander", "Autohaus Pfeiffer KG"],
    "ru": ["АО «Северный порт»", "ГБОУ Школа № 1417", "ООО «Медицинский центр Здоровье»", "ТСЖ «Лесная, 12»",
           "ООО «Проектное бюро Контур»", "МУП «Горводоканал»"],
    "zh": ["东方国际贸易有限公司", "阳光第二小学", "仁和口腔诊所", "滨江花园物业管理处", "宏图建筑设计事务所", "市自来水公司"],
    "ja": ["株式会社北辰商事", "市立若葉小学校", "さくら歯科医院", "グリーンハイツ管理組合", "株式会社森田設計事務所", "市水道局"],
    "ar": ["شركة الخليج للتجارة", "مدرسة النور الابتدائية", "عيادة الشفاء لطب الأسنان", "جمعية سكن الواحة",
           "مكتب الإبداع الهندسي", "مصلحة المياه البلدية"],
}

INVOICE_TEXT: dict[str, dict[str, object]] = {
    "en": {"cover": "Incoming invoices, {month} {year}", "cover_sub": "Cost centre {cc}, checked by {clerk}",
            "cover_line": "{n}. {supplier}: invoice {number} of {date}, {total}", "title": "INVOICE",
            "number": "Invoice no.", "date": "Invoice date", "customer": "Customer no.", "delivery": "Delivery date",
            "bill_to": "Bill to", "cols": ("Description", "Qty", "Unit price", "Amount"), "net": "Net amount",
            "vat": "VAT {rate}%", "total": "Total due", "rate": 20,
            "pay": "Please pay the total within {days} days, quoting invoice number {number}, to account {iban}.",
            "notes": ["Thank you for your order.", "Goods remain our property until paid in full.",
                      "Prices include delivery to the address above.",
                      "Queries about this invoice must be raised within 14 days.",
                      "Late payments are charged interest at 8 % above the base rate.",
                      "Please keep this invoice for your records."],
            "footer": "{supplier} · Registered office {city} · VAT reg. {vat_id}",
            "clerks": ["J. Porter", "A. Singh", "M. Kowalski", "R. Evans", "L. Chen"]},
    "de": {"cover": "Eingangsrechnungen {month} {year}", "cover_sub": "Kostenstelle {cc}, geprüft von {clerk}",
            "cover_line": "{n}. {supplier}: Rechnung {number} vom {date}, {total}", "title": "RECHNUNG",
            "number": "Rechnungsnummer", "date": "Rechnungsdatum", "customer": "Kundennummer", "delivery": "Lieferdatum",
            "bill_to": "Rechnungsempfänger", "cols": ("Bezeichnung", "Menge", "Einzelpreis", "Betrag"),
            "net": "Nettobetrag", "vat": "USt. {rate} %", "total": "Rechnungsbetrag", "rate": 19,
            "pay": "Bitte überweisen Sie den Rechnungsbetrag innerhalb von {days} Tagen unter Angabe der "
                      "Rechnungsnummer {number} auf das Konto {iban}.",
            "notes": ["Vielen Dank für Ihren Auftrag.", "Die Ware bleibt bis zur vollständigen Bezahlung unser Eigentum.",
                      "Die Preise verstehen sich frei Haus.", "Reklamationen bitte innerhalb von 14 Tagen.",
                      "Bei Zahlungsverzug berechnen wir Verzugszinsen.", "Bitte bewahren Sie diese Rechnung auf."],
            "footer": "{supplier} · Sitz {city} · USt-IdNr. {vat_id}",
            "clerks": ["K. Bauer", "S. Yilmaz", "M. Schröder", "T. Wagner", "E. Nowak"]},
    "ru": {"cover": "Входящие счета, {month} {year}", "cover_sub": "Центр затрат {cc}, проверил {clerk}",
            "cover_line": "{n}. {supplier}: счёт № {number} от {date}, {total}", "title": "СЧЁТ НА ОПЛАТУ",
            "number": "Счёт №", "date": "Дата счёта", "customer": "Код покупателя", "delivery": "Дата поставки",
            "bill_to": "Покупатель", "cols": ("Наименование", "Кол-во", "Цена", "Сумма"), "net": "Итого без НДС",
            "vat": "НДС {rate} %", "total": "Всего к оплате", "rate": 20,
            "pay": "Оплатить в течение {days} дней с указанием номера счёта {number} на расчётный счёт {iban}.",
            "notes": ["Благодарим за заказ.", "Товар остаётся собственностью поставщика до полной оплаты.",
                      "Цены указаны с учётом доставки.", "Претензии принимаются в течение 14 дней.",
                      "При просрочке оплаты начисляются пени.", "Сохраните этот счёт для бухгалтерии."],
            "footer": "{supplier} · г. {city} · ИНН {vat_id}",
            "clerks": ["Н. Орлова", "С. Ким", "А. Васильев", "Е. Гусева", "Д. Сафин"]},
    "zh": {"cover": "{year}年{month}月进项发票汇总", "cover_sub": "成本中心 {cc}，审核人：{clerk}",
            "cover_line": "{n}. {supplier}：发票号 {number}，开票日期 {date}，{total}", "title": "销售发票",
            "number": "发票号码", "date": "开票日期", "customer": "客户编号", "delivery": "交货日期",
            "bill_to": "购买方", "cols": ("货物或服务名称", "数量", "单价", "金额"), "net": "不含税金额",
            "vat": "增值税 {rate}%", "total": "价税合计", "rate": 13,
            "pay": "请于{days}日内将价税合计款项汇入账户{iban}，并注明发票号码{number}。",
            "notes": ["感谢您的订购。", "货款付清前货物所有权归销售方。", "价格已含送货费用。", "如有异议请于14日内提出。",
                      "逾期付款将按规定收取滞纳金。", "请妥善保管本发票。"],
            "footer": "{supplier}　地址：{city}　纳税人识别号 {vat_id}",
            "clerks": ["王丽", "陈刚", "刘芳", "赵敏", "周强"]},
    "ja": {"cover": "{year}年{month}月分 受領請求書", "cover_sub": "原価センター {cc}　確認者：{clerk}",
            "cover_line": "{n}. {supplier}：請求書番号 {number}（{date}）{total}", "title": "請求書",
            "number": "請求書番号", "date": "請求日", "customer": "お客様番号", "delivery": "納品日",
            "bill_to": "請求先", "cols": ("品名", "数量", "単価", "金額"), "net": "小計", "vat": "消費税 {rate}%",
            "total": "ご請求金額", "rate": 10,
            "pay": "請求書番号{number}をご記入のうえ、{days}日以内に口座{iban}へお振込みください。",
            "notes": ["毎度ありがとうございます。", "代金完済まで商品の所有権は当社に帰属します。", "価格には配送料が含まれています。",
                      "内容に相違がある場合は14日以内にご連絡ください。", "お支払いが遅れた場合は遅延損害金を申し受けます。",
                      "本請求書は大切に保管してください。"],
            "footer": "{supplier}　本社：{city}　登録番号 {vat_id}",
            "clerks": ["佐藤", "鈴木", "田中", "伊藤", "渡辺"]},
    "ar": {"cover": "الفواتير الواردة لشهر {month} {year}", "cover_sub": "مركز التكلفة {cc}، دققها {clerk}",
            "cover_line": "{n}. {supplier}: فاتورة رقم {number} بتاريخ {date}، {total}", "title": "فاتورة ضريبية",
            "number": "رقم الفاتورة", "date": "تاريخ الفاتورة", "customer": "رقم العميل", "delivery": "تاريخ التسليم",
            "bill_to": "العميل", "cols": ("الوصف", "الكمية", "سعر الوحدة", "المبلغ"), "net": "المبلغ قبل الضريبة",
            "vat": "ضريبة القيمة المضافة {rate}%", "total": "الإجمالي المستحق", "rate": 15,
            "pay": "يرجى سداد المبلغ خلال {days} يوما إلى الحساب {iban} مع ذكر رقم الفاتورة {number}.",
            "notes": ["شكرا لتعاملكم معنا.", "تبقى البضاعة ملكا للمورد حتى سداد كامل الثمن.", "الأسعار تشمل التوصيل.",
                      "تقبل الاعتراضات على الفاتورة خلال 14 يوما.", "تحتسب غرامة على التأخر في السداد.",
                      "يرجى الاحتفاظ بهذه الفاتورة."],
            "footer": "{supplier} · المقر الرئيسي {city} · الرقم الضريبي {vat_id}",
            "clerks": ["سارة العتيبي", "محمد القحطاني", "ليلى حداد", "خالد الزهراني", "نورة الشمري"]},
}

CITIES = {
    "en": ["Bristol", "Leeds", "Norwich", "Exeter", "York", "Leicester", "Derby", "Chester", "Bath", "Lincoln",
           "Carlisle", "Reading"],
    "de": ["Lindenau", "Kassel", "Bamberg", "Göttingen", "Rostock", "Freiburg", "Passau", "Trier", "Ulm", "Erfurt",
           "Lübeck", "Gießen"],
    "ru": ["Тверь", "Казань", "Самара", "Пермь", "Томск", "Калуга", "Ярославль", "Вологда", "Тула", "Омск", "Рязань",
           "Кострома"],
    "zh": ["杭州市", "苏州市", "成都市", "南京市", "西安市", "青岛市", "长沙市", "厦门市", "宁波市", "昆明市", "合肥市", "大连市"],
    "ja": ["札幌市", "仙台市", "金沢市", "静岡市", "岡山市", "松山市", "熊本市", "長野市", "富山市", "高松市", "盛岡市", "奈良市"],
    "ar": ["الرياض", "جدة", "الدمام", "الطائف", "أبها", "تبوك", "عمان", "الدوحة", "مسقط", "الكويت", "القاهرة", "الإسكندرية"],
}

# --- contracts ----------------------------------------------------------------------------------

FIRST_NAMES = {
    "en": ["Emma", "Oliver", "Sophie", "Jack", "Grace", "Harry", "Chloe", "Thomas", "Lucy", "Daniel", "Hannah", "Samuel"],
    "de": ["Anna", "Lukas", "Julia", "Jonas", "Lea", "Felix", "Sarah", "Paul", "Laura", "Tobias", "Katrin", "Stefan"],
    "ru": ["Анна", "Сергей", "Мария", "Дмитрий", "Елена", "Алексей", "Ольга", "Иван", "Татьяна", "Павел", "Наталья",
           "Михаил"],
    "zh": ["晓东", "丽华", "建国", "秀英", "志强", "海燕", "国平", "文静", "明辉", "雪梅", "俊杰", "玉兰"],
    "ja": ["健一", "美咲", "大輔", "由美", "翔太", "恵子", "拓也", "直子", "誠", "明美", "浩二", "春香"],
    "ar": ["أحمد", "فاطمة", "يوسف", "مريم", "عمر", "هدى", "خالد", "سلمى", "إبراهيم", "رنا", "طارق", "لينا"],
}
SURNAMES = {
    "en": ["Brandt", "Whitfield", "Okafor", "Ashworth", "Pennington", "Galloway", "Hargreaves", "Lindqvist",
           "Mortimer", "Fairbairn", "Catterall", "Delacroix", "Esterhazy", "Blackwood", "Ravenscroft", "Sutcliffe",
           "Treadwell", "Winterbottom", "Abernathy", "Kilbride", "Montague", "Pickering", "Rushworth", "Stanhope"],
    "de": ["Brandstätter", "Wiegand", "Oberländer", "Kaltenbach", "Pfannenstiel", "Gottschalk", "Hanselmann",
           "Lindemann", "Morgenroth", "Fleischhauer", "Kellermann", "Dornbusch", "Eichhorn", "Bleibtreu",
           "Rosenkranz", "Schwanitz", "Trautwein", "Wunderlich", "Achterberg", "Kuhlmann", "Mittelstaedt",
           "Pommerening", "Reinhardt", "Steinbrecher"],
    "ru": ["Белозёров", "Воронцов", "Горчаков", "Дубровин", "Ермолаев", "Журавлёв", "Завьялов", "Игнатьев",
           "Калашников", "Лебедев", "Мещеряков", "Нестеров", "Овчинников", "Пономарёв", "Рябинин", "Самойлов",
           "Тихомиров", "Ушаков", "Фомичёв", "Хабаров", "Цветков", "Чернышёв", "Шестаков", "Яковлев"],
    "zh": ["王", "李", "张", "刘", "陈", "杨", "赵", "黄", "周", "吴", "徐", "孙", "胡", "朱", "高", "林", "何", "郭", "马", "罗",
           "梁", "宋", "郑", "谢"],
    "ja": ["佐藤", "鈴木", "高橋", "田中", "伊藤", "渡辺", "山本", "中村", "小林", "加藤", "吉田", "山田", "佐々木", "山口",
           "松本", "井上", "木村", "清水", "林", "斎藤", "山崎", "森", "池田", "橋本"],
    "ar": ["الحربي", "العتيبي", "القحطاني", "الشمري", "الزهراني", "الغامدي", "المطيري", "الدوسري", "السبيعي", "العنزي",
           "الشهري", "البلوي", "الجهني", "الرشيدي", "السلمي", "الحازمي", "المالكي", "العمري", "الأحمدي", "الخالدي",
           "النعيمي", "الكبيسي", "الهاشمي", "التميمي"],
}
STREETS = {  # (as printed with a house number, key)
    "en": [(f"{{no}} {k.title()} {kind}", k) for k, kind in [
        ("maple", "Avenue"), ("juniper", "Close"), ("foxglove", "Lane"), ("wellington", "Road"), ("harebell", "Way"),
        ("chestnut", "Grove"), ("kingfisher", "Drive"), ("primrose", "Hill"), ("saxon", "Street"), ("orchard", "Rise"),
        ("beacon", "Road"), ("heron", "Walk"), ("linden", "Gardens"), ("meadowsweet", "Lane"), ("quarry", "Street"),
        ("riverside", "Terrace")]],
    "de": [(f"{k.title()} {{no}}", k) for k in [
        "lindenallee", "ahornweg", "fliederstraße", "mühlenweg", "am kirchberg", "schillerstraße", "bergstraße",
        "rosenstraße", "hafenstraße", "birkenweg", "wiesengrund", "uhlandstraße", "kastanienallee", "am stadtpark",
        "marktgasse", "eichendorffweg"]],
    "ru": [(f"ул. {k.title()}, д. {{no}}", k) for k in [
        "садовая", "липовая", "рябиновая", "набережная", "заречная", "школьная", "лесная", "полевая", "солнечная",
        "берёзовая", "луговая", "вокзальная", "парковая", "сиреневая", "каштановая", "кленовая"]],
    "zh": [(f"{k}{{no}}号", k) for k in [
        "建设路", "人民路", "解放路", "中山路", "和平街", "青年路", "胜利街", "文化路", "友谊路", "新华路", "幸福街", "长江路",
        "黄河路", "光明街", "朝阳路", "育才路"]],
    "ja": [(f"{k}{{no}}丁目", k) for k in [
        "緑町", "本町", "栄町", "旭町", "若葉町", "桜木町", "東雲", "泉町", "宮前町", "松が丘", "柳町", "日の出町",
        "青葉台", "港町", "清水町", "寿町"]],
    "ar": [(f"{{no}} شارع {k}", k) for k in [
        "الياسمين", "الزيتون", "النخيل", "الورود", "الجامعة", "الاستقلال", "الأندلس", "قرطبة", "الصفا", "الربيع",
        "الفردوس", "البحيرة", "السلام", "الأمير", "المنتزه", "الملقا"]],
}
PREMISES = {  # (what is let, key): the key never occurs in the clauses, annexes or specials
    "en": [("two-room flat on the second floor", "flat"), ("single garage with electric door", "garage"),
           ("ground-floor shop unit with display window", "shop"), ("studio apartment under the roof", "studio"),
           ("workshop with a roller door", "workshop"), ("maisonette over two floors", "maisonette"),
           ("warehouse bay with loading ramp", "warehouse"), ("detached bungalow with carport", "bungalow"),
           ("attic office suite", "attic"), ("allotment plot with summerhouse", "allotment")],
    "de": [("Wohnung mit zwei Zimmern im zweiten Obergeschoss", "wohnung"), ("Garage mit elektrischem Tor", "garage"),
           ("Ladenlokal im Erdgeschoss mit Schaufenster", "ladenlokal"), ("Apartment im Dachgeschoss", "apartment"),
           ("Werkstatt mit Rolltor", "werkstatt"), ("Maisonette über zwei Etagen", "maisonette"),
           ("Lagerhalle mit Laderampe", "lagerhalle"), ("freistehender Bungalow mit Carport", "bungalow"),
           ("Praxisräume im ersten Obergeschoss", "praxisräume"), ("Schrebergarten mit Laube", "schrebergarten")],
    "ru": [("двухкомнатная квартира на третьем этаже", "квартира"), ("гаражный бокс с электроприводом ворот", "гаражный бокс"),
           ("торговое помещение на первом этаже с витриной", "торговое помещение"), ("студия в мансарде", "студия"),
           ("мастерская с подъёмными воротами", "мастерская"), ("двухуровневые апартаменты", "апартаменты"),
           ("складское помещение с пандусом", "складское"), ("отдельный дом с навесом для машины", "отдельный дом"),
           ("офисное помещение на втором этаже", "офисное"), ("садовый участок с летним домиком", "садовый участок")],
    "zh": [("两室一厅住宅", "两室一厅"), ("带电动卷帘门的单间车库", "车库"), ("一楼临街商铺", "临街商铺"), ("顶层单身公寓", "单身公寓"),
           ("带卷帘门的维修车间", "维修车间"), ("跃层住宅", "跃层"), ("带装卸平台的仓库", "仓库"), ("带车棚的独栋平房", "独栋平房"),
           ("二楼写字间", "写字间"), ("带小屋的菜园", "菜园")],
    "ja": [("2LDKのマンション", "マンション"), ("電動シャッター付き車庫", "車庫"), ("1階の路面店舗", "路面店舗"),
           ("最上階のワンルーム", "ワンルーム"), ("シャッター付き作業場", "作業場"), ("メゾネットタイプの住戸", "メゾネット"),
           ("荷捌き場付き倉庫", "倉庫"), ("カーポート付き平屋", "平屋"), ("2階の事務所区画", "事務所区画"), ("小屋付き貸農園", "貸農園")],
    "ar": [("شقة من غرفتين في الطابق الثاني", "شقة"), ("مرآب منفرد ببوابة كهربائية", "مرآب"),
           ("محل تجاري في الطابق الأرضي بواجهة عرض", "محل تجاري"), ("استوديو في الطابق العلوي", "استوديو"),
           ("ورشة ببوابة معدنية", "ورشة"), ("دوبلكس من طابقين", "دوبلكس"), ("مستودع بمنصة تحميل", "مستودع"),
           ("فيلا مستقلة بمظلة سيارات", "فيلا"), ("جناح إداري في الطابق الأول", "جناح إداري"), ("مزرعة صغيرة مع استراحة", "مزرعة")],
}
SPECIALS = {  # (sentence, key)
    "en": [("The tenant may keep one dog of medium size; consent may be withdrawn if neighbours are seriously disturbed.", "dog medium size"),
           ("The tenant may install a satellite dish on the balcony at the tenant's own cost.", "satellite dish balcony"),
           ("The tenant may use the shared garden and in return mows the lawn from April to October.", "shared garden lawn"),
           ("The landlord renews the kitchen worktop before the tenancy begins.", "kitchen worktop renews"),
           ("The tenant may run a small home business provided there is no customer traffic.", "home business customer traffic"),
           ("The tenant may paint the walls in colours of choice and returns them in neutral white.", "paint walls neutral white"),
           ("A bicycle space in the basement is included in the rent.", "bicycle space basement"),
           ("The tenant may install a wall box for charging an electric car at the tenant's expense.", "wall box electric car"),
           ("The rent is reduced by 50 pounds a month until the renovation of the facade is completed.", "rent reduced facade renovation"),
           ("The tenant may put up a garden shed of up to six square metres.", "garden shed six square metres"),
           ("The fitted kitchen of the previous tenant is taken over for a one-off payment of 900 pounds.", "fitted kitchen one-off payment"),
           ("The tenant waives the right to terminate during the first two years.", "waives right terminate two years"),
           ("The tenant may keep two cats; a scratching post protects the door frames.", "two cats scratching post"),
           ("The landlord fits new double-glazed windows in the bedroom by the end of the year.", "double-glazed windows bedroom")],
    "de": [("Der Mieter darf einen mittelgroßen Hund halten; die Erlaubnis kann bei erheblicher Störung widerrufen werden.", "mittelgroßen hund"),
           ("Der Mieter darf auf eigene Kosten eine Satellitenschüssel auf dem Balkon anbringen.", "satellitenschüssel balkon"),
           ("Der Mieter darf den Gemeinschaftsgarten nutzen und mäht dafür von April bis Oktober den Rasen.", "gemeinschaftsgarten rasen"),
           ("Der Vermieter erneuert vor Mietbeginn die Arbeitsplatte der Küche.", "arbeitsplatte küche erneuert"),
           ("Eine kleine gewerbliche Tätigkeit ohne Kundenverkehr ist gestattet.", "gewerbliche tätigkeit kundenverkehr"),
           ("Der Mieter darf die Wände farbig streichen und gibt sie in neutralem Weiß zurück.", "wände farbig streichen"),
           ("Ein Fahrradstellplatz im Keller ist in der Miete enthalten.", "fahrradstellplatz keller"),
           ("Der Mieter darf auf eigene Kosten eine Wallbox zum Laden eines Elektroautos installieren.", "wallbox elektroauto"),
           ("Die Miete mindert sich um 50 Euro monatlich bis zum Abschluss der Fassadensanierung.", "miete mindert fassadensanierung"),
           ("Der Mieter darf ein Gartenhaus bis sechs Quadratmeter aufstellen.", "gartenhaus sechs quadratmeter"),
           ("Die Einbauküche des Vormieters wird gegen eine Ablöse von 900 Euro übernommen.", "einbauküche ablöse vormieters"),
           ("Der Mieter verzichtet für die ersten zwei Jahre auf sein Kündigungsrecht.", "verzichtet kündigungsrecht zwei jahre"),
           ("Der Mieter darf zwei Katzen halten; ein Kratzbaum schützt die Türrahmen.", "zwei katzen kratzbaum"),
           ("Der Vermieter baut bis Jahresende im Schlafzimmer neue Isolierglasfenster ein.", "isolierglasfenster schlafzimmer")],
    "ru": [("Арендатору разрешается содержать одну собаку среднего размера.", "собаку среднего размера"),
           ("Арендатор вправе установить спутниковую антенну на балконе за свой счёт.", "спутниковую антенну балконе"),
           ("Арендатор пользуется общим садом и в течение сезона косит газон.", "общим садом газон"),
           ("Арендодатель до начала аренды заменяет кухонную столешницу.", "кухонную столешницу заменяет"),
           ("Допускается небольшая надомная работа без приёма посетителей.", "надомная работа посетителей"),
           ("Арендатор может покрасить стены в любой цвет и при выезде возвращает их белыми.", "покрасить стены белыми"),
           ("Место для велосипеда в подвале включено в арендную плату.", "велосипеда подвале"),
           ("Арендатор вправе за свой счёт установить зарядную станцию для электромобиля.", "зарядную станцию электромобиля"),
           ("Арендная плата снижается на 3000 рублей до окончания ремонта фасада.", "снижается ремонта фасада"),
           ("Арендатор может поставить садовый сарай площадью до шести квадратных метров.", "садовый сарай шести"),
           ("Встроенная кухня прежнего арендатора переходит за единовременную плату 40 000 рублей.", "встроенная кухня единовременную"),
           ("Арендатор отказывается от права расторжения в первые два года.", "отказывается расторжения два года"),
           ("Арендатору разрешается содержать двух кошек; когтеточка защищает дверные коробки.", "двух кошек когтеточка"),
           ("Арендодатель до конца года устанавливает в спальне стеклопакеты.", "спальне стеклопакеты")],
    "zh": [("乙方可饲养一只中型犬，如严重影响邻居，甲方可收回许可。", "中型犬"),
           ("乙方可自费在阳台安装卫星天线。", "卫星天线 阳台"), ("乙方可使用公共花园，并负责四月至十月修剪草坪。", "公共花园 修剪草坪"),
           ("甲方在租期开始前更换厨房台面。", "更换厨房台面"), ("乙方可在室内从事不接待顾客的小型家庭办公。", "家庭办公 不接待顾客"),
           ("乙方可自行粉刷墙面颜色，退租时恢复为白色。", "粉刷墙面 恢复为白色"), ("地下室自行车位一个包含在租金内。", "地下室自行车位"),
           ("乙方可自费安装电动汽车充电桩。", "电动汽车充电桩"), ("外墙翻新完成前，每月租金减免三百元。", "外墙翻新 租金减免"),
           ("乙方可搭建不超过六平方米的花园工具房。", "花园工具房"), ("原租户的整体橱柜由乙方一次性支付九百元后接收。", "整体橱柜 一次性支付"),
           ("乙方在前两年内放弃提前解约的权利。", "放弃提前解约"), ("乙方可饲养两只猫，并使用猫抓板保护门框。", "两只猫 猫抓板"),
           ("甲方于年底前为卧室更换双层中空玻璃窗。", "卧室 双层中空玻璃窗")],
    "ja": [("借主は中型犬一頭を飼育することができる。", "中型犬一頭"), ("借主は自己の費用でベランダに衛星アンテナを設置できる。", "ベランダ 衛星アンテナ"),
           ("借主は共用庭を使用し、四月から十月まで芝刈りを行う。", "共用庭 芝刈り"), ("貸主は入居前に台所の天板を交換する。", "台所の天板を交換"),
           ("来客のない小規模な在宅業務を認める。", "在宅業務 来客"), ("借主は壁を好みの色に塗装でき、退去時に白色に戻す。", "壁を好みの色に塗装"),
           ("地下の駐輪スペース一台分を賃料に含む。", "地下の駐輪スペース"), ("借主は自己の費用で電気自動車用充電設備を設置できる。", "電気自動車用充電設備"),
           ("外壁改修工事の完了まで賃料を月額五千円減額する。", "外壁改修 減額"), ("借主は六平方メートル以内の物置を設置できる。", "物置 六平方メートル"),
           ("前借主のシステムキッチンを一時金九万円で引き継ぐ。", "システムキッチン 一時金"), ("借主は最初の二年間、解約権を放棄する。", "解約権を放棄"),
           ("借主は猫二匹を飼育でき、爪とぎで建具を保護する。", "猫二匹 爪とぎ"), ("貸主は年内に寝室の窓を複層ガラスに交換する。", "寝室 複層ガラス")],
    "ar": [("يجوز للمستأجر اقتناء كلب متوسط الحجم، ويجوز سحب الإذن إذا انزعج الجيران.", "كلب متوسط الحجم"),
           ("يجوز للمستأجر تركيب طبق استقبال فضائي في الشرفة على نفقته.", "طبق استقبال الشرفة"),
           ("يستخدم المستأجر الحديقة المشتركة ويتولى قص عشبها من أبريل إلى أكتوبر.", "الحديقة المشتركة عشبها"),
           ("يجدد المؤجر سطح المطبخ الرخامي قبل بدء الإيجار.", "سطح المطبخ الرخامي"),
           ("يسمح بعمل منزلي صغير دون استقبال زبائن.", "عمل منزلي زبائن"),
           ("يجوز للمستأجر طلاء الجدران بألوان يختارها على أن يعيدها بيضاء.", "طلاء الجدران بيضاء"),
           ("يشمل الإيجار مكانا لدراجة هوائية في القبو.", "دراجة هوائية القبو"),
           ("يجوز للمستأجر تركيب شاحن لسيارة كهربائية على نفقته.", "شاحن لسيارة كهربائية"),
           ("يخفض الإيجار بمبلغ 200 ريال شهريا حتى انتهاء ترميم الواجهة.", "يخفض ترميم الواجهة"),
           ("يجوز للمستأجر إقامة مخزن حديقة لا تتجاوز مساحته ستة أمتار مربعة.", "مخزن حديقة ستة أمتار"),
           ("يتسلم المستأجر خزائن المطبخ من المستأجر السابق مقابل دفعة واحدة.", "خزائن المطبخ دفعة واحدة"),
           ("يتنازل المستأجر عن حق الفسخ خلال السنتين الأوليين.", "يتنازل حق الفسخ"),
           ("يجوز للمستأجر اقتناء قطتين مع لوح خدش يحمي إطارات الأبواب.", "قطتين لوح خدش"),
           ("يركب المؤجر نوافذ بزجاج مزدوج في غرفة النوم قبل نهاية العام.", "زجاج مزدوج غرفة النوم")],
}

CONTRACT_TEXT: dict[str, dict[str, object]] = {
    "en": {
        "title": "LEASE AGREEMENT", "number": "Agreement no. {number}", "between": "between",
        "landlord_line": "{landlord}, {lstreet}, {lcity}, hereinafter the landlord,", "and_": "and",
        "tenant_line": "{first} {surname}, born {birth}, hereinafter the tenant.",
        "premises": ("§ 1 Premises", ("The landlord lets to the tenant the {premises} at {street}, {city}, with a floor "
                  "area of about {area} square metres, together with {keys} keys.")),
        "header": "Lease agreement no. {number}",
        "sections": [
            ("Term", ("The tenancy begins on {start}. It runs for an indefinite period and may be ended by either party "
                     "in writing with {notice} months' notice to the end of a calendar month.")),
            ("Rent", ("The monthly rent is {rent}, payable in advance by the third working day of each month. In addition "
                     "the tenant pays {service} a month towards service charges, which are settled once a year.")),
            ("Deposit", ("The tenant pays a deposit of {deposit}, which the landlord holds in a separate account. It is "
                        "returned with interest within {weeks} weeks after the end of the tenancy, less justified claims.")),
            ("Use", ("The premises may be used only for the agreed purpose. Any other use requires the landlord's written "
                    "consent, which may not be withheld without good reason.")),
            ("Care and minor repairs", ("The tenant treats the premises with care, airs them regularly and reports any "
                                       "damage without delay. Minor repairs up to {minor} per case and {cap} per year are "
                                       "paid by the tenant.")),
            ("Alterations", ("Structural alterations, new locks and fixed appliances need the landlord's prior written "
                            "consent. At the end of the tenancy the tenant restores the original condition.")),
            ("Subletting", ("Subletting in whole or in part requires the landlord's consent. The tenant remains liable "
                           "for any damage caused by a subtenant.")),
            ("Access", ("The landlord may enter the premises after giving {hours} hours' notice to inspect them, to carry "
                       "out repairs or to show them to prospective tenants or buyers.")),
            ("Termination", ("Notice must be given in writing. The landlord may terminate without notice if the tenant "
                            "is more than two months in arrears with the rent.")),
            ("Handover", ("At the start and at the end of the tenancy the parties record the condition of the premises "
                         "and the meter readings in a handover record signed by both.")),
        ],
        "special_heading": "Special agreements", "special_intro": "The landlord and {first} {surname} further agree:",
        "final": ("Final provisions", ("Changes and additions to this agreement must be made in writing. Should a "
                                   "provision be invalid, the remaining provisions stay in force. Each party receives "
                                   "one signed copy.")),
        "signed": "Signed at {city} on {date}.", "sign_landlord": "Landlord: {landlord}", "sign_tenant": "Tenant: {first} {surname}",
        "section": "§ {n} {title}",
        "annex_inventory": "Annex {k}: Inventory", "annex_meters": "Annex {k}: Handover record",
        "rooms": ["Kitchen", "Living room", "Bedroom", "Bathroom", "Hallway", "Cellar", "Second bedroom", "Utility room"],
        "fixtures": ["ceiling light", "curtain rail", "smoke alarm", "radiator with valve", "fitted wardrobe", "mirror",
                  "towel rail", "cooker hood", "extractor fan", "coat hooks", "roller blind", "wall cabinet",
                  "shelf unit", "dishwasher", "washing machine connection", "door mat"],
        "condition": ["good condition", "as new", "slight signs of wear", "scratch on the left side", "freshly painted"],
        "meters": ["Electricity meter no. {m}: {v} kWh", "Water meter no. {m}: {v} cubic metres",
                "Heat meter no. {m}: {v} units", "Keys handed over: {k} front door, {k2} letterbox"],
        "rules": ["Quiet hours are from 10 pm to 7 am and from 1 pm to 3 pm on Sundays.",
               "Stairs and entrance are cleaned by the tenants in turn, following the rota in the hall.",
               "Bicycles and prams may not be left in the stairwell.",
               "Waste is sorted into the bins provided; bulky waste is collected on request.",
               "Barbecues with charcoal are not allowed on balconies.",
               "Windows in the stairwell are closed in winter.", "Washing may be dried in the drying room only."],
        "rules_heading": "Annex {k}: House rules"},
    "de": {
        "title": "MIETVERTRAG", "number": "Vertragsnummer {number}", "between": "zwischen",
        "landlord_line": "{landlord}, {lstreet}, {lcity}, nachfolgend Vermieter,", "and_": "und",
        "tenant_line": "{first} {surname}, geboren am {birth}, nachfolgend Mieter.",
        "premises": ("§ 1 Mietsache", ("Der Vermieter vermietet dem Mieter die {premises} in {street}, {city}, mit einer "
                  "Fläche von etwa {area} Quadratmetern. Dem Mieter werden {keys} Schlüssel ausgehändigt.")),
        "header": "Mietvertrag Nr. {number}",
        "sections": [
            ("Mietzeit", ("Das Mietverhältnis beginnt am {start}. Es läuft auf unbestimmte Zeit und kann von beiden "
                         "Seiten mit einer Frist von {notice} Monaten zum Monatsende schriftlich gekündigt werden.")),
            ("Miete", ("Die monatliche Miete beträgt {rent} und ist bis zum dritten Werktag im Voraus zu zahlen. Dazu "
                      "kommt eine Vorauszahlung von {service} für Betriebskosten, die jährlich abgerechnet werden.")),
            ("Kaution", ("Der Mieter leistet eine Kaution von {deposit}, die getrennt vom Vermögen des Vermieters "
                        "angelegt wird. Sie wird spätestens {weeks} Wochen nach Mietende mit Zinsen zurückgezahlt.")),
            ("Nutzung", ("Die Mietsache darf nur zum vereinbarten Zweck genutzt werden. Eine andere Nutzung bedarf der "
                        "schriftlichen Zustimmung des Vermieters.")),
            ("Obhut und Kleinreparaturen", ("Der Mieter behandelt die Mietsache pfleglich, lüftet regelmäßig und meldet "
                                           "Schäden unverzüglich. Kleinreparaturen bis {minor} im Einzelfall und {cap} "
                                           "im Jahr trägt der Mieter.")),
            ("Bauliche Veränderungen", ("Bauliche Veränderungen, neue Schlösser und fest eingebaute Geräte bedürfen der "
                                       "vorherigen schriftlichen Zustimmung. Bei Auszug stellt der Mieter den "
                                       "ursprünglichen Zustand wieder her.")),
            ("Untervermietung", ("Eine Untervermietung ganz oder teilweise bedarf der Zustimmung des Vermieters. Der "
                                "Mieter haftet für Schäden, die ein Untermieter verursacht.")),
            ("Betreten der Mietsache", ("Der Vermieter darf die Mietsache nach Ankündigung von {hours} Stunden betreten, "
                                       "um sie zu besichtigen, Reparaturen auszuführen oder sie Interessenten zu zeigen.")),
            ("Kündigung", ("Die Kündigung bedarf der Schriftform. Der Vermieter kann fristlos kündigen, wenn der Mieter "
                          "mit mehr als zwei Monatsmieten im Rückstand ist.")),
            ("Übergabe", ("Bei Beginn und Ende des Mietverhältnisses halten die Parteien den Zustand der Mietsache und "
                         "die Zählerstände in einem gemeinsam unterschriebenen Protokoll fest.")),
        ],
        "special_heading": "Besondere Vereinbarungen", "special_intro": "Der Vermieter und {first} {surname} vereinbaren zusätzlich:",
        "final": ("Schlussbestimmungen", ("Änderungen und Ergänzungen dieses Vertrags bedürfen der Schriftform. Sollte "
                                      "eine Bestimmung unwirksam sein, bleiben die übrigen wirksam. Jede Partei erhält "
                                      "eine unterschriebene Ausfertigung.")),
        "signed": "{city}, den {date}", "sign_landlord": "Vermieter: {landlord}", "sign_tenant": "Mieter: {first} {surname}",
        "section": "§ {n} {title}",
        "annex_inventory": "Anlage {k}: Inventarliste", "annex_meters": "Anlage {k}: Übergabeprotokoll",
        "rooms": ["Küche", "Wohnzimmer", "Schlafzimmer", "Bad", "Flur", "Kellerraum", "Kinderzimmer", "Abstellraum"],
        "fixtures": ["Deckenleuchte", "Gardinenleiste", "Rauchmelder", "Heizkörper mit Ventil", "Einbauschrank", "Spiegel",
                  "Handtuchheizkörper", "Dunstabzugshaube", "Lüfter", "Garderobenhaken", "Rollo", "Hängeschrank",
                  "Regal", "Geschirrspüler", "Waschmaschinenanschluss", "Fußmatte"],
        "condition": ["guter Zustand", "neuwertig", "leichte Gebrauchsspuren", "Kratzer an der linken Seite", "frisch gestrichen"],
        "meters": ["Stromzähler Nr. {m}: {v} kWh", "Wasserzähler Nr. {m}: {v} Kubikmeter", "Wärmemengenzähler Nr. {m}: {v} Einheiten",
                "Übergebene Schlüssel: {k} Haustür, {k2} Briefkasten"],
        "rules": ["Die Ruhezeiten gelten von 22 bis 7 Uhr sowie sonntags von 13 bis 15 Uhr.",
               "Treppenhaus und Eingang reinigen die Mieter abwechselnd nach dem Plan im Flur.",
               "Fahrräder und Kinderwagen dürfen nicht im Treppenhaus abgestellt werden.",
               "Abfälle werden getrennt in den bereitgestellten Tonnen entsorgt; Sperrmüll wird auf Anfrage abgeholt.",
               "Holzkohlegrills sind auf Balkonen nicht erlaubt.", "Die Fenster im Treppenhaus bleiben im Winter geschlossen.",
               "Wäsche darf nur im Trockenraum getrocknet werden."],
        "rules_heading": "Anlage {k}: Hausordnung"},
    "ru": {
        "title": "ДОГОВОР АРЕНДЫ", "number": "Договор № {number}", "between": "Стороны договора",
        "landlord_line": "Арендодатель: {landlord}, {lstreet}, г. {lcity}.", "and_": "",
        "tenant_line": "Арендатор: {first} {surname}, дата рождения {birth}.",
        "premises": ("§ 1 Предмет договора", ("Арендодатель передаёт арендатору во временное пользование объект: {premises}, "
                  "по адресу {street}, г. {city}, общей площадью около {area} кв. м. Арендатору передаются ключи: {keys} шт.")),
        "header": "Договор аренды № {number}",
        "sections": [
            ("Срок аренды", ("Аренда начинается {start}. Договор заключён на неопределённый срок; каждая сторона может "
                            "расторгнуть его, письменно предупредив другую сторону за {notice} мес.")),
            ("Арендная плата", ("Ежемесячная арендная плата составляет {rent} и вносится вперёд до третьего рабочего дня "
                               "месяца. Кроме того, арендатор вносит {service} в месяц в счёт коммунальных платежей.")),
            ("Залог", ("Арендатор вносит залог в размере {deposit}. Залог возвращается в течение {weeks} недель после "
                      "окончания аренды за вычетом обоснованных требований.")),
            ("Использование", ("Объект используется только по назначению. Иное использование допускается лишь с "
                              "письменного согласия арендодателя.")),
            ("Содержание и мелкий ремонт", ("Арендатор бережно относится к объекту, регулярно проветривает его и "
                                           "незамедлительно сообщает о повреждениях. Мелкий ремонт до {minor} за случай "
                                           "и до {cap} в год оплачивает арендатор.")),
            ("Переделки", ("Перепланировка, замена замков и установка встроенной техники допускаются только с письменного "
                          "согласия арендодателя. При выезде арендатор восстанавливает прежнее состояние.")),
            ("Субаренда", ("Передача объекта в субаренду полностью или частично требует согласия арендодателя. Арендатор "
                          "отвечает за ущерб, причинённый субарендатором.")),
            ("Доступ", ("Арендодатель вправе посещать объект, предупредив арендатора за {hours} часов, для осмотра, "
                       "ремонта или показа будущим арендаторам.")),
            ("Расторжение", ("Уведомление о расторжении направляется в письменной форме. Арендодатель может расторгнуть "
                            "договор досрочно при просрочке оплаты более двух месяцев.")),
            ("Передача", ("При начале и окончании аренды стороны фиксируют состояние объекта и показания счётчиков в "
                         "акте приёма-передачи, подписанном обеими сторонами.")),
        ],
        "special_heading": "Особые условия", "special_intro": "Арендодатель и арендатор {surname} {first} дополнительно договорились:",
        "final": ("Заключительные положения", ("Изменения и дополнения к договору действительны в письменной форме. "
                                           "Недействительность одного положения не влечёт недействительности остальных. "
                                           "Договор составлен в двух экземплярах.")),
        "signed": "г. {city}, {date}", "sign_landlord": "Арендодатель: {landlord}", "sign_tenant": "Арендатор: {first} {surname}",
        "section": "§ {n} {title}",
        "annex_inventory": "Приложение {k}. Опись имущества", "annex_meters": "Приложение {k}. Акт приёма-передачи",
        "rooms": ["Кухня", "Гостиная", "Спальня", "Ванная", "Прихожая", "Кладовая", "Детская", "Лоджия"],
        "fixtures": ["потолочный светильник", "карниз", "датчик дыма", "радиатор с краном", "встроенный шкаф", "зеркало",
                  "полотенцесушитель", "вытяжка", "вентилятор", "вешалка", "рулонная штора", "навесной шкаф",
                  "стеллаж", "посудомоечная машина", "подключение стиральной машины", "коврик"],
        "condition": ["хорошее состояние", "как новое", "небольшие следы износа", "царапина слева", "свежая покраска"],
        "meters": ["Электросчётчик № {m}: {v} кВт·ч", "Счётчик воды № {m}: {v} куб. м", "Счётчик тепла № {m}: {v} Гкал",
                "Передано ключей: {k} от подъезда, {k2} от почтового ящика"],
        "rules": ["Тишина соблюдается с 23:00 до 7:00.", "Лестницу и вход жильцы убирают по очереди согласно графику.",
               "Велосипеды и коляски нельзя оставлять на лестничной площадке.",
               "Мусор сортируется по контейнерам; крупногабаритный мусор вывозится по заявке.",
               "Мангалы на балконах запрещены.", "Зимой окна в подъезде закрыты.",
               "Бельё сушится только в сушильной комнате."],
        "rules_heading": "Приложение {k}. Правила проживания"},
    "zh": {
        "title": "房屋租赁合同", "number": "合同编号：{number}", "between": "甲乙双方",
        "landlord_line": "出租方（甲方）：{landlord}，地址：{lcity}{lstreet}", "and_": "",
        "tenant_line": "承租方（乙方）：{name}，出生日期：{birth}",
        "premises": ("第一条 租赁物", "甲方将位于{city}{street}的{premises}出租给乙方使用，建筑面积约{area}平方米，交付钥匙{keys}把。"),
        "header": "房屋租赁合同 编号{number}",
        "sections": [
            ("租赁期限", "租赁期自{start}起，为不定期租赁。任何一方解除合同，应提前{notice}个月书面通知对方。"),
            ("租金", "月租金为{rent}，乙方应于每月第三个工作日前预付。此外，乙方每月预交物业及公共费用{service}，每年结算一次。"),
            ("押金", "乙方向甲方支付押金{deposit}。租赁结束后{weeks}周内，甲方扣除合理费用后退还押金。"),
            ("用途", "租赁物仅可用于约定用途。改变用途须经甲方书面同意。"),
            ("维护与小修", "乙方应爱护租赁物，定期通风，发现损坏及时告知甲方。每次{minor}以内、每年{cap}以内的小修费用由乙方承担。"),
            ("改造", "改动结构、更换门锁或安装固定设备，须事先征得甲方书面同意。退租时乙方应恢复原状。"),
            ("转租", "乙方转租全部或部分租赁物，须经甲方同意。次承租人造成的损失由乙方负责。"),
            ("进入检查", "甲方提前{hours}小时通知乙方后，可进入租赁物进行检查、维修或带看。"),
            ("合同解除", "解除合同应以书面形式通知。乙方拖欠租金超过两个月的，甲方可立即解除合同。"),
            ("交接", "租赁开始和结束时，双方记录租赁物状况及各类表计读数，并共同签署交接单。"),
        ],
        "special_heading": "特别约定", "special_intro": "甲方与乙方{name}另行约定如下：",
        "final": ("其他", "本合同的变更和补充须以书面形式作出。部分条款无效的，不影响其他条款的效力。本合同一式两份，双方各执一份。"),
        "signed": "签订地点：{city}　签订日期：{date}", "sign_landlord": "甲方：{landlord}", "sign_tenant": "乙方：{name}",
        "section": "第{n}条 {title}",
        "annex_inventory": "附件{k}：室内物品清单", "annex_meters": "附件{k}：交接记录",
        "rooms": ["厨房", "客厅", "主卧", "卫生间", "玄关", "储藏间", "次卧", "阳台"],
        "fixtures": ["吸顶灯", "窗帘轨道", "烟雾报警器", "暖气片及阀门", "嵌入式衣柜", "镜子", "毛巾架", "抽油烟机", "排气扇",
                  "挂衣钩", "卷帘", "吊柜", "置物架", "洗碗机", "洗衣机接口", "地垫"],
        "condition": ["状况良好", "全新", "轻微使用痕迹", "左侧有划痕", "新近粉刷"],
        "meters": ["电表编号{m}：{v}千瓦时", "水表编号{m}：{v}立方米", "热量表编号{m}：{v}单位", "交付钥匙：单元门{k}把，信箱{k2}把"],
        "rules": ["晚十点至早七点请保持安静。", "楼道和入口由住户轮流打扫。", "自行车和婴儿车不得停放在楼道内。",
               "垃圾请分类投放，大件垃圾预约清运。", "阳台禁止使用炭火烧烤。", "冬季请关闭楼道窗户。", "衣物只可在晾衣间晾晒。"],
        "rules_heading": "附件{k}：住户守则"},
    "ja": {
        "title": "賃貸借契約書", "number": "契約番号　{number}", "between": "当事者",
        "landlord_line": "貸主：{landlord}（住所：{lcity}{lstreet}）", "and_": "",
        "tenant_line": "借主：{name}（生年月日：{birth}）",
        "premises": ("第1条（物件）", "貸主は、{city}{street}所在の{premises}（面積約{area}平方メートル）を借主に賃貸し、鍵{keys}本を引き渡す。"),
        "header": "賃貸借契約書　契約番号{number}",
        "sections": [
            ("契約期間", "賃貸借は{start}に開始する。期間の定めはなく、各当事者は{notice}か月前までに書面で通知して解約できる。"),
            ("賃料", "賃料は月額{rent}とし、毎月第三営業日までに前払いする。借主はこのほか共益費として月額{service}を支払い、年一回精算する。"),
            ("敷金", "借主は敷金として{deposit}を預け入れる。敷金は契約終了後{weeks}週間以内に、正当な債務を差し引いて返還する。"),
            ("使用目的", "借主は本物件を約定の目的にのみ使用する。これ以外の使用には貸主の書面による承諾を要する。"),
            ("善管注意と小修繕", "借主は本物件を善良な管理者の注意をもって使用し、定期的に換気し、損傷を直ちに通知する。1件{minor}、年間{cap}までの小修繕は借主の負担とする。"),
            ("造作の変更", "構造の変更、鍵の交換、設備の据付けには貸主の事前の書面承諾を要する。退去時には借主が原状に回復する。"),
            ("転貸", "本物件の全部または一部の転貸には貸主の承諾を要する。転借人による損害は借主が責任を負う。"),
            ("立入り", "貸主は{hours}時間前に通知したうえで、点検、修繕または内見のため本物件に立ち入ることができる。"),
            ("解除", "解約の通知は書面で行う。借主が賃料を二か月分以上滞納した場合、貸主は直ちに契約を解除できる。"),
            ("引渡し", "契約の開始時と終了時に、当事者は本物件の状態とメーター指針を記録し、双方が署名する。"),
        ],
        "special_heading": "特約事項", "special_intro": "貸主と借主{name}は、次のとおり特約する。",
        "final": ("その他", "本契約の変更および追加は書面で行う。一部の条項が無効となっても、他の条項は効力を失わない。本契約書を二通作成し、各自一通を保有する。"),
        "signed": "{city}にて　{date}", "sign_landlord": "貸主：{landlord}", "sign_tenant": "借主：{name}",
        "section": "第{n}条（{title}）",
        "annex_inventory": "別紙{k}　備品一覧", "annex_meters": "別紙{k}　引渡し記録",
        "rooms": ["台所", "居間", "寝室", "浴室", "玄関", "納戸", "洋室", "バルコニー"],
        "fixtures": ["シーリングライト", "カーテンレール", "火災警報器", "暖房器", "クローゼット", "鏡", "タオル掛け", "レンジフード",
                  "換気扇", "コートフック", "ロールスクリーン", "吊戸棚", "棚", "食器洗い機", "洗濯機用水栓", "玄関マット"],
        "condition": ["良好", "新品同様", "軽微な使用感", "左側に擦り傷", "塗装済み"],
        "meters": ["電気メーター番号{m}：{v}kWh", "水道メーター番号{m}：{v}立方メートル", "熱量メーター番号{m}：{v}単位",
                "引渡し鍵：玄関{k}本、郵便受け{k2}本"],
        "rules": ["午後十時から午前七時までは静かにしてください。", "階段と玄関は入居者が当番制で清掃します。",
               "自転車とベビーカーを廊下に置かないでください。", "ごみは分別して出し、粗大ごみは申込制です。",
               "バルコニーでの炭火の使用は禁止です。", "冬季は共用部の窓を閉めてください。", "洗濯物は乾燥室で干してください。"],
        "rules_heading": "別紙{k}　使用細則"},
    "ar": {
        "title": "عقد إيجار", "number": "رقم العقد {number}", "between": "أطراف العقد",
        "landlord_line": "المؤجر: {landlord}، {lstreet}، {lcity}.", "and_": "",
        "tenant_line": "المستأجر: {first} {surname}، تاريخ الميلاد {birth}.",
        "premises": ("المادة 1: محل العقد", ("يؤجر المؤجر للمستأجر {premises} الكائن في {street}، {city}، بمساحة تقارب {area} "
                  "مترا مربعا، ويسلمه {keys} مفاتيح.")),
        "header": "عقد إيجار رقم {number}",
        "sections": [
            ("مدة الإيجار", "يبدأ الإيجار في {start} ويستمر لمدة غير محددة، ويجوز لكل طرف إنهاؤه بإشعار كتابي قبل {notice} أشهر."),
            ("الأجرة", ("الأجرة الشهرية {rent} تدفع مقدما قبل اليوم الثالث من كل شهر، ويدفع المستأجر فوقها {service} شهريا "
                       "مقابل الخدمات المشتركة تسوى مرة في السنة.")),
            ("التأمين", ("يدفع المستأجر مبلغ تأمين قدره {deposit}، يعاد إليه خلال {weeks} أسابيع من انتهاء الإيجار بعد خصم "
                        "المطالبات المستحقة.")),
            ("الاستعمال", "لا تستعمل العين المؤجرة إلا في الغرض المتفق عليه، وأي استعمال آخر يحتاج إلى موافقة كتابية من المؤجر."),
            ("العناية والإصلاحات البسيطة", ("يعتني المستأجر بالعين المؤجرة ويهويها بانتظام ويبلغ عن أي ضرر دون تأخير، "
                                           "ويتحمل الإصلاحات البسيطة حتى {minor} للمرة و{cap} في السنة.")),
            ("التعديلات", ("لا يجوز إجراء تعديلات إنشائية أو تغيير الأقفال أو تركيب أجهزة ثابتة إلا بموافقة كتابية مسبقة، "
                          "ويعيد المستأجر الحال إلى ما كانت عليه عند الإخلاء.")),
            ("التأجير من الباطن", ("لا يجوز التأجير من الباطن كليا أو جزئيا إلا بموافقة المؤجر، ويبقى المستأجر مسؤولا عن "
                                  "أي ضرر يحدثه المستأجر من الباطن.")),
            ("الدخول", "يجوز للمؤجر دخول العين المؤجرة بعد إشعار قبل {hours} ساعة للمعاينة أو الإصلاح أو عرضها على الراغبين."),
            ("الفسخ", "يكون الإشعار بالإنهاء كتابة، ويجوز للمؤجر الفسخ فورا إذا تأخر المستأجر في دفع الأجرة أكثر من شهرين."),
            ("التسليم", "عند بدء الإيجار وانتهائه يسجل الطرفان حالة العين المؤجرة وقراءات العدادات في محضر تسليم يوقعانه."),
        ],
        "special_heading": "اتفاقات خاصة", "special_intro": "اتفق المؤجر والمستأجر {first} {surname} كذلك على ما يلي:",
        "final": ("أحكام ختامية", ("لا يعتد بأي تعديل أو إضافة إلى هذا العقد ما لم يكن مكتوبا، وبطلان أي بند لا يبطل بقية البنود، "
                               "وحرر العقد من نسختين بيد كل طرف نسخة.")),
        "signed": "حرر في {city} بتاريخ {date}", "sign_landlord": "المؤجر: {landlord}", "sign_tenant": "المستأجر: {first} {surname}",
        "section": "المادة {n}: {title}",
        "annex_inventory": "الملحق {k}: قائمة المحتويات", "annex_meters": "الملحق {k}: محضر التسليم",
        "rooms": ["المطبخ", "غرفة المعيشة", "غرفة النوم", "الحمام", "الممر", "المخزن", "غرفة الأطفال", "الشرفة"],
        "fixtures": ["مصباح سقف", "قضيب ستائر", "كاشف دخان", "مدفأة بصمام", "خزانة حائط", "مرآة", "علاقة مناشف", "شفاط مطبخ",
                  "مروحة تهوية", "علاقات ملابس", "ستارة دوارة", "خزانة معلقة", "رفوف", "غسالة صحون", "توصيلة غسالة", "سجادة مدخل"],
        "condition": ["حالة جيدة", "جديد", "آثار استعمال خفيفة", "خدش في الجانب الأيسر", "مطلي حديثا"],
        "meters": ["عداد الكهرباء رقم {m}: {v} كيلوواط ساعة", "عداد المياه رقم {m}: {v} مترا مكعبا", "عداد الحرارة رقم {m}: {v} وحدة",
                "المفاتيح المسلمة: {k} للمدخل و{k2} لصندوق البريد"],
        "rules": ["يلتزم السكان بالهدوء من العاشرة مساء حتى السابعة صباحا.", "ينظف السكان الدرج والمدخل بالتناوب.",
               "لا تترك الدراجات وعربات الأطفال في بيت الدرج.", "تفرز النفايات في الحاويات المخصصة.",
               "يمنع الشواء بالفحم في الشرفات.", "تغلق نوافذ الدرج في الشتاء.", "ينشر الغسيل في غرفة التجفيف فقط."],
        "rules_heading": "الملحق {k}: نظام السكن"},
}
LANDLORDS = {
    "en": ["Harbour View Housing Association", "Cartwright Property Management", "Margaret Ellison", "Oakhurst Estates Ltd",
           "Peter Lambourne", "Greenway Homes Ltd"],
    "de": ["Wohnbau Nordstadt eG", "Hausverwaltung Kestner GmbH", "Margarete Ellinger", "Immobilien Falkenberg KG",
           "Peter Lammers", "Grünwald Wohnen GmbH"],
    "ru": ["ООО «Жилфонд»", "ООО «Управляющая компания Домострой»", "Маргарита Ельцова", "АО «Городская недвижимость»",
           "Пётр Ламанов", "ООО «Зелёный квартал»"],
    "zh": ["滨江置业有限公司", "安居物业管理有限公司", "李秀珍", "城建房地产开发有限公司", "马国庆", "绿城住房租赁有限公司"],
    "ja": ["株式会社湊不動産", "緑ヶ丘管理株式会社", "山田花子", "株式会社都市住宅", "小野寺正", "青葉ハウジング株式会社"],
    "ar": ["شركة الإعمار العقارية", "مؤسسة السكن الميسر", "منيرة الفهد", "شركة المدينة للعقارات", "سليمان الراشد",
           "شركة الواحة للإسكان"],
}

# --- manuals ------------------------------------------------------------------------------------

REVISION = {"en": "Revision {r}, {date}", "de": "Ausgabe {r}, {date}", "ru": "Редакция {r}, {date}",
            "zh": "第{r}版　{date}", "ja": "第{r}版　{date}", "ar": "الإصدار {r}، {date}", "fa": "ویرایش {r}، {date}"}
PAGE_LABEL = {"en": "Page {p} of {n}", "de": "Seite {p} von {n}", "ru": "Стр. {p} из {n}", "zh": "第{p}页 共{n}页",
              "ja": "{p} / {n} ページ", "ar": "صفحة {p} من {n}", "fa": "صفحه {p} از {n}"}
EXCERPT = {"en": "Excerpt: {title}", "de": "Auszug: {title}", "ru": "Выдержка: {title}", "zh": "节选：{title}",
           "ja": "抜粋：{title}", "ar": "مقتطف: {title}", "fa": "گزیده: {title}"}


# ================================================================================================
# Matching as a search engine with light stemming would: the rule for "this page has the query's
# words", shared by the generator (which drops queries whose words are all on another page) and by
# check_library (which re-reads the written PDFs)

ZWNJ = "\u200c"
_WORD = re.compile(r"\w+")
_SPACE = re.compile(r"\s+")
_CJK_CHAR = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]")
_ARABIC_PREFIXES = ("وال", "بال", "فال", "كال", "لل", "ال", "و", "ف", "ب", "ل")


def fold(text: str) -> str:
    """Text as compared: NFKC (Arabic presentation forms to letters), case-folded (ß as ss), Russian ё
    as е, without the zero-width non-joiner that Persian writes inside words."""
    return unicodedata.normalize("NFKC", text).casefold().replace("ё", "е").replace(ZWNJ, "")


def _strip_clitic(word: str) -> str:
    """An Arabic word without a leading article, conjunction or preposition (وال، بال، ال، و ...)."""
    for prefix in _ARABIC_PREFIXES:
        if word.startswith(prefix) and len(word) - len(prefix) >= 3:
            return word[len(prefix):]
    return word


def _is_arabic(word: str) -> bool:
    return "\u0600" <= word[0] <= "\u06ff"


def _bigrams(run: str) -> list[str]:
    return [run[i:i + 2] for i in range(len(run) - 1)] or [run]


def query_terms(text: str, script: str) -> list[tuple[str, ...]]:
    """The query's terms, each as the keys any of which a page must have: a word's first five
    letters ("w:" keys; an Arabic-script word's after a leading clitic, so that "خرطوشة" finds
    "وخرطوشة" and "الريادة" does not find "الرياحين"), or in Chinese and Japanese each character
    bigram of each run ("b:" keys)."""
    folded = fold(text)
    if script == "cjk":
        return [("b:" + gram,) for run in _WORD.findall(folded) for gram in _bigrams(run)]
    return [("w:" + (_strip_clitic(word) if _is_arabic(word) else word)[:5],) for word in _WORD.findall(folded)]


def page_keys(text: str) -> set[str]:
    """Every key a page's text offers: its words' first five letters (Arabic-script words' after a
    leading clitic), plus character bigrams and single characters where it has CJK text."""
    folded = fold(text)
    keys = set()
    for word in _WORD.findall(folded):
        keys.add("w:" + (_strip_clitic(word) if _is_arabic(word) else word)[:5])
    if _CJK_CHAR.search(folded):
        compact = _SPACE.sub("", folded)
        keys.update("b:" + compact[i:i + 2] for i in range(len(compact) - 1))
        keys.update("b:" + char for char in compact)
    return keys


def has_words(text: str, query: str, script: str) -> list[str]:
    """The query words missing from a page's text (empty when it has them all): a word is there
    when it, or its first five letters, start a word of the page (Arabic: also after a clitic);
    Chinese and Japanese runs must occur as they are in the text without spaces and line breaks."""
    folded = fold(text)
    if script == "cjk":
        compact = _SPACE.sub("", folded)
        return [run for run in _WORD.findall(fold(query)) if run not in compact]
    keys = page_keys(text)
    words = _WORD.findall(fold(query))
    return [word for word, term in zip(words, query_terms(query, script), strict=False)
            if not any(k in keys for k in term)]


class KeyIndex:
    """Which pages have which query keys: postings only for the keys some query uses, so that the
    pages of a 10,000-document library fit in a few hundred MB."""

    def __init__(self, universe: set[str]) -> None:
        self.universe = universe
        self.postings: dict[str, list[int]] = defaultdict(list)
        self.pages: list[tuple[str, int]] = []  # (relative path, page number)

    def add(self, rel: str, number: int, text: str) -> None:
        page_id = len(self.pages)
        self.pages.append((rel, number))
        for key in page_keys(text) & self.universe:
            self.postings[key].append(page_id)

    def pages_with(self, text: str, script: str) -> set[int]:
        found: set[int] | None = None
        for term in query_terms(text, script):
            pages = set().union(*(self.postings.get(key, ()) for key in term))
            found = pages if found is None else found & pages
            if not found:
                return set()
        return found or set()

    def rare_words(self, text: str, script: str, target: int) -> int:
        """How many of the query's terms occur on no page but the target."""
        return sum(1 for term in query_terms(text, script)
                   if set().union(*(self.postings.get(key, ()) for key in term)) <= {target})


# ================================================================================================
# The page writer

DEJAVU = Path("/usr/share/fonts/truetype/dejavu/")
PAGE_W, PAGE_H = 595.0, 842.0
LEFT, RIGHT, TOP, BOTTOM = 72.0, 523.0, 72.0, 770.0
_LTR_RUN = re.compile(r"[A-Za-z0-9][A-Za-z0-9.,%/:+\-]*|[^A-Za-z0-9]+")
_LTR_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9.,%/:+\-]*")
_CJK_UNIT = re.compile(r"[A-Za-z0-9][A-Za-z0-9.,%/:+\-]*|.")
# Characters the embedded DejaVu subsets keep: Latin, Cyrillic, Arabic with its presentation forms,
# punctuation and the few symbols the texts use.
_SUBSET_RANGES = ((0x20, 0x7E), (0xA0, 0x17F), (0x2010, 0x2044), (0x20AC, 0x20AC), (0x2116, 0x2116),
                  (0x2212, 0x2212), (0x0400, 0x045F), (0x0600, 0x06FF), (0xFB50, 0xFDFF), (0xFE70, 0xFEFF))


class Face:
    """One font as the writer uses it: its resource name, how text is encoded for it (WinAnsi bytes,
    UTF-16 for the CJK CMaps, glyph ids for Identity-H) and its advances."""

    def __init__(self, resource: str, kind: str, source: str) -> None:
        self.resource, self.kind, self.source = resource, kind, source
        self.font: pymupdf.Font | None = None
        if kind == "base14":
            self.font = pymupdf.Font(source)
        elif kind == "ttf":
            self.buffer = (DEJAVU / source).read_bytes()
            self.font = pymupdf.Font(fontbuffer=self.buffer)
        self._advance: dict[str, float] = {}
        self._gids: dict[int, str] = {}

    def width(self, text: str) -> float:
        """Advance at size 1; CJK fonts: a full em per character, half for ASCII (their /W)."""
        if self.font is None:
            return sum(0.5 if char < "\x80" else 1.0 for char in text)
        advance = self._advance
        total = 0.0
        for char in text:
            found = advance.get(char)
            if found is None:
                found = advance[char] = self.font.text_length(char, 1.0)
            total += found
        return total

    def encode(self, text: str) -> str:
        if self.kind == "base14":
            return text.encode("cp1252", "replace").hex()
        if self.kind == "cid":
            return text.encode("utf-16-be").hex()
        missing = {ord(char) for char in text} - self._gids.keys()
        for code in missing:
            self._gids[code] = f"{self.font.has_glyph(code):04x}"
        return text.translate(self._gids)


class Typeface:
    """A language's regular and bold faces and the template PDF that has them installed."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.rtl = SCRIPT_OF[lang] == "arabic"
        self.cjk = SCRIPT_OF[lang] == "cjk"
        if SCRIPT_OF[lang] == "latin":
            self.regular, self.bold = Face("helv", "base14", "helv"), Face("hebo", "base14", "hebo")
        elif self.cjk:
            cjk_font = "china-s" if lang == "zh" else "japan"
            self.regular = self.bold = Face(cjk_font, "cid", cjk_font)
        else:
            self.regular = Face("F1", "ttf", "DejaVuSans.ttf")
            self.bold = Face("F2", "ttf", "DejaVuSans-Bold.ttf")
        self.template, self.resources = self._template()

    def _template(self) -> tuple[bytes, str]:
        """A one-page PDF with the fonts installed (DejaVu subset to the script's characters, so
        no document pays for subsetting) and the page's resources reference for the other pages."""
        pdf = pymupdf.open()
        page = pdf.new_page(width=PAGE_W, height=PAGE_H)
        faces = [self.regular] if self.bold is self.regular else [self.regular, self.bold]
        ops = []
        for face in faces:
            if face.kind == "base14":
                page.insert_font(fontname=face.resource)
            elif face.kind == "cid":
                xref = page.insert_font(fontname=face.resource)
                descendant = int(pdf.xref_get_key(xref, "DescendantFonts")[1].strip("[] ").split()[0])
                pdf.xref_set_key(descendant, "W", "[1 95 500]")  # half-width ASCII, as set by Face.width
            else:
                page.insert_font(fontname=face.resource, fontbuffer=face.buffer)
                chars = "".join(chr(c) for low, high in _SUBSET_RANGES for c in range(low, high + 1)
                                if face.font.has_glyph(c))
                ops.append(f"BT /{face.resource} 1 Tf 0 0 Td <{face.encode(chars)}> Tj ET")
        contents = pdf.get_new_xref()
        pdf.update_object(contents, "<<>>")
        pdf.update_stream(contents, "\n".join(ops).encode())
        pdf.xref_set_key(page.xref, "Contents", f"{contents} 0 R")
        if ops:
            pdf.subset_fonts()
        pdf.update_stream(contents, b"")
        resources = pdf.xref_get_key(page.xref, "Resources")[1]
        return pdf.tobytes(garbage=1, deflate=True), resources


_TYPEFACES: dict[str, Typeface] = {}


def typeface(lang: str) -> Typeface:
    if lang not in _TYPEFACES:
        _TYPEFACES[lang] = Typeface(lang)
    return _TYPEFACES[lang]


_SHAPED: dict[str, str] = {}


def _shaped(word: str) -> str:
    found = _SHAPED.get(word)
    if found is None:
        found = _SHAPED[word] = shape(word)
    return found


class Writer:
    """Pages as content-stream operators, laid out line by line: words wrapped by their advances
    (CJK by character), Arabic script shaped into presentation forms and placed right to left in
    runs (a Latin or number run left to right, with a space either side so that it stays a word of
    its own in the text layer), every line's logical text kept for the uniqueness check."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.face = typeface(lang)
        self.pages: list[tuple[list[str], list[str]]] = []
        self.ops: list[str] = []
        self.text: list[str] = []
        self.y = TOP

    @property
    def number(self) -> int:
        return len(self.pages)

    def new_page(self) -> None:
        self.ops, self.text = [], []
        self.pages.append((self.ops, self.text))
        self.y = TOP

    def room(self) -> float:
        return BOTTOM - self.y

    def _put(self, face: Face, size: float, x: float, text: str, y: float | None = None) -> None:
        baseline = PAGE_H - (self.y if y is None else y)
        self.ops.append(f"BT /{face.resource} {size:g} Tf {x:.2f} {baseline:.2f} Td <{face.encode(text)}> Tj ET")

    def line(self, text: str, bold: bool = False, size: float = 10.0, x: float = LEFT, align: str = "start",
             y: float | None = None) -> None:
        """One line at the current position (x as in a left-to-right layout; mirrored for Arabic
        script, where "start" is the right margin)."""
        if not text:
            return
        self.text.append(text)
        face = self.face.bold if bold else self.face.regular
        if not self.face.rtl:
            width = face.width(text) * size
            left = x if align == "start" else x - width if align == "end" else x - width / 2
            self._put(face, size, left, text, y)
            return
        shaped = " ".join(_shaped(word) for word in text.split(" "))
        pieces = []
        for run in _LTR_RUN.findall(shaped):
            ltr = run[0].isascii() and run[0].isalnum()
            pieces.append(f" {run} " if ltr else run[::-1])
        widths = [face.width(piece) * size for piece in pieces]
        total = sum(widths)
        mirrored = PAGE_W - x
        right = mirrored if align == "start" else mirrored + total if align == "end" else mirrored + total / 2
        for piece, width in zip(pieces, widths, strict=True):
            right -= width
            self._put(face, size, right, piece, y)

    def wrap(self, text: str, bold: bool = False, size: float = 10.0, width: float = RIGHT - LEFT) -> list[str]:
        face = self.face.bold if bold else self.face.regular
        limit = width / size
        lines: list[str] = []
        current: list[str] = []
        used = 0.0
        if self.face.cjk:
            for unit in _CJK_UNIT.findall(text):
                advance = face.width(unit)
                if current and used + advance > limit:
                    lines.append("".join(current).strip())
                    current, used = [], 0.0
                current.append(unit)
                used += advance
            return lines + (["".join(current).strip()] if current else [])
        space = face.width(" ")
        for word in text.split():
            if self.face.rtl:  # a Latin or number run is set with a space either side (see line())
                advance = face.width(_shaped(word)) + 2 * space * len(_LTR_WORD.findall(word))
            else:
                advance = face.width(word)
            if current and used + advance > limit:
                lines.append(" ".join(current))
                current, used = [], 0.0
            current.append(word)
            used += advance + space
        return lines + ([" ".join(current)] if current else [])

    def paragraph(self, text: str, bold: bool = False, size: float = 10.0, leading: float | None = None,
                  gap: float = 5.0, indent: float = 0.0, force: bool = False) -> bool:
        """A wrapped paragraph, or False (and nothing written) when it does not fit the page."""
        leading = leading or size * 1.35
        lines = self.wrap(text, bold, size, RIGHT - LEFT - indent)
        if not force and self.y + len(lines) * leading > BOTTOM:
            return False
        for line in lines:
            self.y += leading
            self.line(line, bold, size, LEFT + indent)
        self.y += gap
        return True

    def height(self, text: str, bold: bool = False, size: float = 10.0, leading: float | None = None,
               gap: float = 5.0) -> float:
        return len(self.wrap(text, bold, size)) * (leading or size * 1.35) + gap

    def save(self, path: Path, title: str, header: str, footer: Callable[[int, int], str]) -> list[str]:
        """Write the PDF (header and footer on every page but the first) and return each page's text."""
        total = len(self.pages)
        for number, (ops, text) in enumerate(self.pages, start=1):
            self.ops, self.text = ops, text
            if number > 1 and header:
                self.line(header, size=8, y=48)
            self.line(footer(number, total), size=8, x=PAGE_W / 2, align="center", y=805)
        pdf = pymupdf.open("pdf", self.face.template)
        for number, (ops, _text) in enumerate(self.pages):
            page = pdf[0] if number == 0 else pdf.new_page(width=PAGE_W, height=PAGE_H)
            if number:
                pdf.xref_set_key(page.xref, "Resources", self.face.resources)
            xref = pdf.get_new_xref()
            pdf.update_object(xref, "<<>>")
            pdf.update_stream(xref, "\n".join(ops).encode())
            pdf.xref_set_key(page.xref, "Contents", f"{xref} 0 R")
        pdf.set_metadata({"title": title, "producer": "pdfdesk library corpus", "creator": "bench/library_corpus.py"})
        path.parent.mkdir(parents=True, exist_ok=True)
        pdf.save(path, garbage=1, deflate=True)
        pdf.close()
        return ["\n".join(text) for _ops, text in self.pages]


# ================================================================================================
# Manual families: the hand-written relevance-corpus documents, their pages and queries


@dataclass
class HandPage:
    """One written page of a relevance-corpus document, with the known-item queries that fit a
    library (three to eight words, or four CJK characters; none that tests how words are joined)."""

    family: str
    lang: str
    blocks: list[tuple[str, str]]  # ("heading", "2.1 Colour cycles") or ("para", text)
    queries: list[str]


@dataclass
class Family:
    name: str
    lang: str
    title: str
    subtitle: str
    headings: list[str]
    titles: list[str]
    pages: list[HandPage]
    vocabulary: list[str]  # words (CJK: characters) swapped into near-miss paragraphs


def _usable(text: str, tags: tuple[str, ...], script: str) -> bool:
    if "joined" in tags:
        return False
    folded = fold(text)
    if script == "cjk":
        return bool(_CJK_CHAR.search(folded)) and sum(len(run) for run in _WORD.findall(folded)) >= 4
    return 3 <= len(_WORD.findall(folded)) <= 8


_FAMILIES: dict[str, Family] = {}


def families() -> dict[str, Family]:
    """The manual families by name (the relevance documents in this library's languages)."""
    if _FAMILIES:
        return _FAMILIES
    for doc in _relevance.all_documents():
        if doc.lang not in SCRIPT_OF:
            continue
        script = SCRIPT_OF[doc.lang]
        numbers = [doc.first_body_page + i + sum(doc.filler_after[:i]) for i in range(len(doc.pages))]
        pages = []
        for index, blocks in enumerate(doc.pages):
            queries = [q.text for q in doc.queries if q.kind == "known" and q.page == numbers[index]
                       and _usable(q.text, q.tags, script)]
            written = [("heading", f"{b.heading.number} {b.heading.title}".replace("`", "")) if b.heading
                       else ("para", b.text.replace("`", "")) for b in blocks]
            pages.append(HandPage(doc.name, doc.lang, written, queries))
        prose = " ".join(text for page in pages for kind, text in page.blocks if kind == "para")
        if script == "cjk":
            vocabulary = sorted(set(_CJK_CHAR.findall(prose)))
        else:
            vocabulary = sorted(set(re.findall(r"[^\W\d_]{4,}", prose)))
        _FAMILIES[doc.name] = Family(
            doc.name, doc.lang, doc.title, doc.subtitle,
            [f"{h.number} {h.title}".replace("`", "") for h in doc.headings],
            [h.title.replace("`", "") for h in doc.headings], pages, vocabulary)
    return _FAMILIES


def _swap_word(text: str, word: str, script: str, vocabulary: list[str], rng: random.Random) -> str:
    """The text with every word that matches `word` (by the check's keys) replaced: a number by
    another number of as many digits, a word by a word of the family's vocabulary."""
    keys = set(query_terms(word, script)[0]) if _WORD.search(fold(word)) else set()

    def replace(match: re.Match[str]) -> str:
        part = match.group()
        if not keys & set(query_terms(part, script)[0] if query_terms(part, script) else ()):
            return part
        if part.isdigit():
            while True:
                other = "".join(rng.choice("0123456789") for _ in part).lstrip("0") or "7"
                if other != part:
                    return other
        for _ in range(50):
            other = rng.choice(vocabulary)
            if not keys & set(query_terms(other, script)[0]):
                return other.capitalize() if part[:1].isupper() else other.lower()
        return part

    return re.sub(r"\w+", replace, text)


def _swap_char(text: str, run: str, position: int, vocabulary: list[str], rng: random.Random) -> str:
    """The text with one character of every occurrence of a CJK run replaced."""
    if not run:
        return text
    position = min(position, len(run) - 1)
    other = run[position]
    while other == run[position] or other in run:
        other = rng.choice(vocabulary)
    lowered = text.lower()
    found = lowered.find(run)
    while found >= 0:
        text = text[:found + position] + other + text[found + position + 1:]
        lowered = text.lower()
        found = lowered.find(run, found + 1)
    return text


def _common_keys(family: Family, page: HandPage) -> set[str]:
    """Keys that a page of the family may have anyway: its filler sentences, headings, title and
    labels, and the family's other hand-written pages (which may share a page with a near miss).
    A near-miss paragraph must leave out a query word that is not among them."""
    lang = family.lang
    text = " ".join([*_filler.GENERIC[lang], *_filler.STATEMENTS[lang], *_filler.MENTIONS[lang], *family.headings,
                     family.title, family.subtitle, REVISION[lang], PAGE_LABEL[lang], EXCERPT[lang]]
                    + [t for other in family.pages if other is not page for _kind, t in other.blocks])
    return page_keys(text.replace("~", ZWNJ))


def near_miss(page: HandPage, query: str, variant: int, family: Family, rng: random.Random) -> str | None:
    """The page's paragraph that holds most of the query's words, with one of them swapped (the
    variant decides which), and then with a word swapped for every other query of the page that it
    would still answer: text that an older revision could have had, with all of the query's words
    but one. A swap counts only if the paragraph, together with everything the family's pages have
    anyway (filler, headings, the other hand-written pages), no longer has all the query's words:
    swapping "the", a number, or a CJK character whose bigram recurs nearby would not do (for a
    query made only of such common words, the paragraph itself must lack one). None when no such
    paragraph can be made."""
    script = SCRIPT_OF[page.lang]
    common = _common_keys(family, page)
    paragraphs = [text for kind, text in page.blocks if kind == "para"]
    if not paragraphs:
        return None

    def whole(text: str, query_text: str) -> bool:
        # a query that the family's common words complete by themselves cannot be broken against
        # them: for it, only the paragraph's own words count
        base = common if not complete(common, query_text) else set()
        return complete(page_keys(text) | base, query_text)

    def complete(keys: set[str], query_text: str) -> bool:
        return all(any(k in keys for k in term) for term in query_terms(query_text, script))

    def swap(text: str, query_text: str, choice: int, avoid: set[str]) -> str | None:
        # words (CJK: characters) whose key the family's common text lacks come first, so that the
        # two variants of a query leave out two different words
        if script == "cjk":
            runs = _WORD.findall(fold(query_text))
            spots: list = [(run, i) for run in runs for i in range(len(run)) if not run[i].isdigit()]
            spots.sort(key=lambda spot: all("b:" + gram in common for gram in _bigrams(spot[0])[max(0, spot[1] - 1):spot[1] + 1]))
        else:
            spots = [w for w, term in zip(_WORD.findall(fold(query_text)), query_terms(query_text, script), strict=False)
                     if w not in avoid and len(w) > 2 and not w.isdigit() and not has_words(text, w, script)]
            spots.sort(key=lambda w: any(k in common for k in query_terms(w, script)[0]))
        for attempt in range(len(spots)):
            spot = spots[(choice + attempt) % len(spots)]
            if script == "cjk":
                changed = _swap_char(text, spot[0], spot[1], family.vocabulary, rng)
            else:
                changed = _swap_word(text, spot, script, family.vocabulary, rng)
            if not whole(changed, query_text):
                return changed
        return None

    text = swap(min(paragraphs, key=lambda t: len(has_words(t, query, script))), query,
                variant * (3 if script == "cjk" else 1), set())
    if text is None:
        return None
    own = set(_WORD.findall(fold(query)))
    for other in page.queries:
        if whole(text, other):
            text = swap(text, other, rng.randrange(8), own)
            if text is None:
                return None
    if any(whole(text, other) for other in page.queries):
        return None
    return text


def check_pools() -> list[str]:
    """Keys of the generated pools that are not in their own text (each must be, or the target
    page would not answer its query) or are in another entry's text too (then reserving the
    combination would not keep it unique), and premises keys that the clauses or annexes use."""
    problems = []
    for lang in GENERATED_LANGS:
        script = SCRIPT_OF[lang]
        pools = [("supplier", SUPPLIERS[lang]), ("item", [(d, k) for d, k, _price in ITEMS[lang]]),
                 ("street", [(t.format(no=7), k) for t, k in STREETS[lang]]), ("premises", PREMISES[lang]),
                 ("special", SPECIALS[lang])]
        for name, pool in pools:
            for text, key in pool:
                if has_words(text, key, script):
                    problems.append(f"{lang} {name} {key!r}: {has_words(text, key, script)} not in {text!r}")
                for other, other_key in pool:
                    if other_key != key and not has_words(other, key, script):
                        problems.append(f"{lang} {name} {key!r} is also in {other!r}")
        contract = CONTRACT_TEXT[lang]
        boiler = " ".join([s[1] for s in contract["sections"]] + list(contract["rules"]) + list(contract["fixtures"])
                          + list(contract["rooms"]) + [contract["final"][1], contract["special_intro"]])
        for _text, key in PREMISES[lang]:
            if not has_words(boiler, key, script):
                problems.append(f"{lang} premises key {key!r} occurs in the contract's clauses")
    return problems


# ================================================================================================
# The plan: every document's language, kind, length and file, and where the targets go


@dataclass
class Target:
    kind: str                                 # "hand" | "invoice" | "cover" | "special"
    queries: list[str]
    page: int = 0                             # 1-based; for "special" known once the contract is laid out
    hand: HandPage | None = None
    supplier: int = -1
    items: tuple[int, ...] = ()
    tenant: tuple[int, int] = (-1, -1)        # (first name, surname)
    street: int = -1
    premises: int = -1
    special: int = -1
    order: int = 0                            # planning order: queries beyond the quota are cut from the end


@dataclass
class DocPlan:
    index: int
    lang: str
    kind: str                                 # "manual" | "invoice" | "contract"
    family: str
    rel: str
    pages: int                                # planned length (a contract may run longer)
    year: int
    month: int
    targets: list[Target] = field(default_factory=list)
    echoes: dict[int, list[str]] = field(default_factory=dict)

    @property
    def script(self) -> str:
        return SCRIPT_OF[self.lang]


@dataclass
class Reservations:
    """Combinations that only their target page may have: a supplier's item pairs, a tenant's
    street and premises, a tenant's special agreement."""

    pairs: dict[tuple[str, int], set[frozenset[int]]] = field(default_factory=lambda: defaultdict(set))
    covers: set[tuple[str, str, int, int]] = field(default_factory=set)
    specials: set[tuple[str, str, int]] = field(default_factory=set)


def tenant_key(lang: str, tenant: tuple[int, int]) -> str:
    """What identifies a tenant in a query: the surname, or in Chinese and Japanese the full name."""
    first, surname = FIRST_NAMES[lang][tenant[0]], SURNAMES[lang][tenant[1]]
    return surname + first if lang in ("zh", "ja") else surname


def _typed(lang: str, *parts: str) -> str:
    """A query as typed: lower case, Russian ё as е."""
    text = " ".join(parts).lower()
    return text.replace("ё", "е") if lang == "ru" else text


def _allocate(total: int, shares: dict[str, float]) -> dict[str, int]:
    """total split by shares, rounded by largest remainder (so the counts add up)."""
    raw = {key: total * share / sum(shares.values()) for key, share in shares.items()}
    counts = {key: int(value) for key, value in raw.items()}
    for key in sorted(raw, key=lambda k: raw[k] - counts[k], reverse=True)[:total - sum(counts.values())]:
        counts[key] += 1
    return counts


def _page_count(rng: random.Random) -> int:
    """Mostly about ten pages, some short, some long (up to 40)."""
    draw = rng.random()
    if draw < 0.6:
        return rng.randint(8, 12)
    if draw < 0.8:
        return rng.randint(5, 7)
    if draw < 0.95:
        return rng.randint(13, 20)
    return rng.randint(21, 40)


def query_quota(documents_in_script: int) -> int:
    """Known-item queries kept per script: one per ten documents, at least 30."""
    return max(30, round(documents_in_script / 10))


def plan_library(documents: int, seed: int) -> tuple[list[DocPlan], Reservations]:
    """Every document and target of the library, from the seed alone (no file is read or written),
    so that a missing document can be written again exactly as it was."""
    rng = random.Random(f"library-plan:{seed}:{documents}")
    fams = families()
    plans: list[DocPlan] = []
    serial: Counter[str] = Counter()
    for lang, count in _allocate(documents, LANG_SHARE).items():
        kinds = _allocate(count, KIND_SHARE) if lang in GENERATED_LANGS else {"manual": count}
        lang_families = sorted(name for name, fam in fams.items() if fam.lang == lang)
        for kind, kind_count in kinds.items():
            for number in range(kind_count):
                family = lang_families[number % len(lang_families)] if kind == "manual" else kind
                year, month = rng.randint(2019, 2024), rng.randint(1, 12)
                serial[family] += 1
                if kind == "manual":
                    stem = f"{family}-manual-{serial[family]:04d}"
                elif kind == "invoice":
                    stem = f"{lang}-invoices-{year}-{month:02d}-{serial[family]:04d}"
                else:
                    stem = f"{lang}-lease-{year}-{serial[family]:04d}"
                plans.append(DocPlan(len(plans), lang, kind, family, f"{lang}/{kind}/{stem}.pdf",
                                     _page_count(rng), year, month))
    reservations = Reservations()
    for script in SCRIPTS:
        _plan_targets(script, [p for p in plans if p.script == script], fams, reservations, rng)
    return plans, reservations


def _plan_targets(script: str, plans: list[DocPlan], fams: dict[str, Family], reservations: Reservations,
                  rng: random.Random) -> None:
    quota = query_quota(len(plans))
    used: set[tuple[int, int]] = set()  # (document, page) slots that hold a target

    def free_page(plan: DocPlan, first: int = 2) -> int:
        choices = [p for p in range(first, plan.pages + 1) if (plan.index, p) not in used]
        return rng.choice(choices) if choices else 0

    # Hand-written pages: about half of the quota, each page in one document of its family.
    by_family: dict[str, list[DocPlan]] = defaultdict(list)
    for plan in plans:
        if plan.kind == "manual":
            by_family[plan.family].append(plan)
    candidates = [page for name in sorted(by_family) for page in fams[name].pages if page.queries]
    rng.shuffle(candidates)
    hand_queries = 0
    for hand in candidates:
        if hand_queries >= quota // 2:
            break
        members = by_family[hand.family]
        plan = rng.choice(members)
        page = free_page(plan)
        if not page:
            continue
        used.add((plan.index, page))
        # at most three queries per page, so that a few pages do not make up the half of a script
        chosen = sorted(rng.sample(range(len(hand.queries)), min(3, len(hand.queries))))
        queries = [hand.queries[i] for i in chosen]
        plan.targets.append(Target("hand", queries, page, hand=hand))
        hand_queries += len(queries)
        family = fams[hand.family]
        hosts = {(plan.index, page)}  # one near miss of a page per host page: two could make a query whole
        for query in queries:
            for variant in range(2):
                text = near_miss(hand, query, variant, family, rng)
                host = rng.choice(members)
                spot = rng.randint(2, host.pages)
                if text and (host.index, spot) not in hosts:
                    hosts.add((host.index, spot))
                    host.echoes.setdefault(spot, []).append(text)
    # Generated targets for the rest, half as many again as needed: some are not unique in the end,
    # and they stand in for hand-written queries that are dropped.
    wanted = max(0, quota - hand_queries)
    wanted += wanted // 2 + 2
    generated = [p for p in plans if p.kind in ("invoice", "contract")]
    langs = sorted({p.lang for p in generated})
    if not generated:
        return
    shares = _allocate(wanted, {lang: sum(1 for p in generated if p.lang == lang) for lang in langs})
    invoices = {lang: [p for p in generated if p.lang == lang and p.kind == "invoice"] for lang in langs}
    contracts = {lang: [p for p in generated if p.lang == lang and p.kind == "contract"] for lang in langs}
    for lang in langs:
        rng.shuffle(contracts[lang])
    order = 0
    for number in range(max(shares.values(), default=0)):  # languages and kinds interleaved
        for lang in langs:
            if number >= shares[lang]:
                continue
            kind = ("invoice", "cover", "invoice", "special")[number % 4]
            target = None
            if kind == "invoice" or not contracts[lang]:
                plan = rng.choice(invoices[lang]) if invoices[lang] else None
                page = free_page(plan) if plan else 0
                if page:
                    used.add((plan.index, page))
                    target = _invoice_target(lang, page, reservations, rng)
            else:
                plan = contracts[lang].pop()
                target = _contract_target(lang, kind, reservations, rng)
                if kind == "cover":
                    used.add((plan.index, 1))
            if target is not None:
                order += 1
                target.order = order
                plan.targets.append(target)


def _invoice_target(lang: str, page: int, reservations: Reservations, rng: random.Random) -> Target:
    items = ITEMS[lang]
    while True:
        supplier = rng.randrange(len(SUPPLIERS[lang]))
        pair = frozenset(rng.sample(range(len(items)), 2))
        if pair not in reservations.pairs[(lang, supplier)]:
            break
    reservations.pairs[(lang, supplier)].add(pair)
    first, second = sorted(pair, key=lambda _i: rng.random())
    query = _typed(lang, SUPPLIERS[lang][supplier][1], items[first][1], items[second][1])
    return Target("invoice", [query], page, supplier=supplier, items=(first, second))


def _contract_target(lang: str, kind: str, reservations: Reservations, rng: random.Random) -> Target:
    while True:
        tenant = (rng.randrange(len(FIRST_NAMES[lang])), rng.randrange(len(SURNAMES[lang])))
        street, premises = rng.randrange(len(STREETS[lang])), rng.randrange(len(PREMISES[lang]))
        special = rng.randrange(len(SPECIALS[lang]))
        name = tenant_key(lang, tenant)
        if kind == "cover" and (lang, name, street, premises) not in reservations.covers:
            reservations.covers.add((lang, name, street, premises))
            query = _typed(lang, name, STREETS[lang][street][1], PREMISES[lang][premises][1])
            return Target("cover", [query], 1, tenant=tenant, street=street, premises=premises)
        if kind == "special" and (lang, name, special) not in reservations.specials:
            reservations.specials.add((lang, name, special))
            query = _typed(lang, name, SPECIALS[lang][special][1])
            return Target("special", [query], 0, tenant=tenant, special=special)


# ================================================================================================
# Writing the documents


def _footer(lang: str) -> Callable[[int, int], str]:
    return lambda page, total: PAGE_LABEL[lang].format(p=page, n=total)


def _doc_rng(plan: DocPlan, seed: int) -> random.Random:
    return random.Random(f"library-doc:{seed}:{plan.index}")


def write_manual(plan: DocPlan, path: Path, seed: int) -> tuple[list[str], dict[int, int]]:
    """A revision (or a chapter excerpt) of a manual: a title page, then pages that each start with
    one of the family's headings, or hold a hand-written target page, and are filled with filler
    statements about the family's topics (and any near-miss paragraphs placed on them)."""
    family = families()[plan.family]
    rng = _doc_rng(plan, seed)
    writer = Writer(plan.lang)
    date = f"{plan.year}-{plan.month:02d}" if plan.lang == "fa" else date_text(
        "ar" if plan.lang == "fa" else plan.lang, plan.year, plan.month, rng.randint(1, 28))
    title = family.title
    start = rng.randrange(len(family.headings))
    if rng.random() < 0.25:
        title = EXCERPT[plan.lang].format(title=family.titles[start])
    writer.new_page()
    writer.y = 250
    for line in writer.wrap(title, True, 22):
        writer.y += 30
        writer.line(line, True, 22)
    writer.y += 14
    writer.paragraph(family.subtitle, size=13)
    writer.paragraph(REVISION[plan.lang].format(r=rng.randint(1, 14), date=date), size=11)
    hands = {t.page: t.hand for t in plan.targets if t.hand is not None}
    for number in range(2, plan.pages + 1):
        writer.new_page()
        hand = hands.get(number)
        if hand is not None:
            for kind, text in hand.blocks:
                if kind == "heading":
                    writer.y += 6
                    writer.paragraph(text, True, 13, gap=6, force=True)
                else:
                    writer.paragraph(text, force=True)
        else:
            writer.paragraph(family.headings[(start + number) % len(family.headings)], True, 13, gap=8)
        for echo in plan.echoes.get(number, []):
            writer.paragraph(echo, force=True)
        while writer.paragraph(filler_paragraph(plan.lang, family.titles, rng)):
            pass
    texts = writer.save(path, title, title, _footer(plan.lang))
    return texts, {id(t): t.page for t in plan.targets}


def _account(lang: str, rng: random.Random) -> str:
    def digits(n: int) -> str:
        return "".join(rng.choice("0123456789") for _ in range(n))

    return {"en": f"GB{digits(2)} NWBK {digits(4)} {digits(4)} {digits(2)}",
            "de": f"DE{digits(2)} {digits(4)} {digits(4)} {digits(4)} {digits(4)} {digits(2)}",
            "ru": f"40702810{digits(12)}", "zh": f"6222 {digits(4)} {digits(4)} {digits(4)}",
            "ja": f"普通 {digits(7)}", "ar": f"SA{digits(2)} {digits(4)} {digits(4)} {digits(4)} {digits(4)}"}[lang]


def _draw_items(lang: str, supplier: int, must: tuple[int, ...], reservations: Reservations,
                rng: random.Random) -> list[int]:
    """An invoice's items: the target's pair (if any) and others, never completing another
    target's reserved pair for this supplier."""
    reserved = reservations.pairs.get((lang, supplier), set()) - {frozenset(must)}
    items = list(must)
    wanted = rng.randint(max(2, len(must)), 7)
    for _ in range(60):
        if len(items) >= wanted:
            break
        candidate = rng.randrange(len(ITEMS[lang]))
        if candidate in items or any(pair <= set(items) | {candidate} for pair in reserved):
            continue
        items.append(candidate)
    rng.shuffle(items)
    return items


def write_invoices(plan: DocPlan, path: Path, seed: int, reservations: Reservations) -> tuple[list[str], dict[int, int]]:
    """A month's batch of incoming invoices: a cover sheet listing them, then one invoice per page."""
    lang, text = plan.lang, INVOICE_TEXT[plan.lang]
    rng = _doc_rng(plan, seed)
    writer = Writer(lang)
    customer = rng.choice(CUSTOMERS[lang])
    customer_street = STREETS[lang][rng.randrange(len(STREETS[lang]))][0].format(no=rng.randint(1, 90))
    customer_city = rng.choice(CITIES[lang])
    customer_no = rng.randint(10000, 99999)
    month = MONTH_TITLE.get(lang, MONTHS.get(lang, [str(m) for m in range(1, 13)]))[plan.month - 1] \
        if lang not in ("zh", "ja") else str(plan.month)
    targets = {t.page: t for t in plan.targets}
    invoices = []
    for number in range(2, plan.pages + 1):
        target = targets.get(number)
        supplier = target.supplier if target else rng.randrange(len(SUPPLIERS[lang]))
        items = _draw_items(lang, supplier, target.items if target else (), reservations, rng)
        day = rng.randint(1, 28)
        lines = []
        for item in items:
            quantity = rng.choice((1, 1, 2, 3, 4, 5, 6, 10, 12, 20, 25, 50))
            price = ITEMS[lang][item][2] * rng.uniform(0.9, 1.15)
            lines.append((item, quantity, price, quantity * price))
        net = sum(line[3] for line in lines)
        vat = net * int(text["rate"]) / 100
        invoices.append({"supplier": supplier, "number": f"{rng.randint(10, 99)}-{rng.randint(10000, 99999)}",
                             "date": date_text(lang, plan.year, plan.month, day), "lines": lines, "net": net, "vat": vat,
                             "delivery": date_text(lang, plan.year, plan.month, max(1, day - rng.randint(0, 6))),
                             "days": rng.choice((14, 30, 30, 45)), "account": _account(lang, rng),
                             "note": rng.choice(text["notes"]), "vat_id": rng.randint(10 ** 8, 10 ** 9 - 1)})
    # the cover sheet
    cover = text["cover"].format(month=month, year=plan.year)
    writer.new_page()
    writer.paragraph(cover, True, 16, gap=6)
    writer.paragraph(text["cover_sub"].format(cc=rng.randint(1000, 9999), clerk=rng.choice(text["clerks"])), size=10,
                     gap=12)
    for n, invoice in enumerate(invoices, start=1):
        writer.paragraph(text["cover_line"].format(
            n=n, supplier=SUPPLIERS[lang][invoice["supplier"]][0], number=invoice["number"], date=invoice["date"],
            total=money(lang, invoice["net"] + invoice["vat"])), size=9, gap=2, force=True)
    for invoice in invoices:
        writer.new_page()
        supplier_name, supplier_key = SUPPLIERS[lang][invoice["supplier"]]
        seat = zlib.crc32(supplier_key.encode())
        street = STREETS[lang][seat % len(STREETS[lang])][0].format(no=seat % 97 + 1)
        city = CITIES[lang][seat % len(CITIES[lang])]
        writer.y += 14
        writer.line(supplier_name, True, 14)
        writer.line(str(text["title"]), True, 16, x=RIGHT, align="end")
        writer.y += 14
        writer.line(f"{street}, {city}", size=9)
        writer.y += 36
        writer.line(f"{text['bill_to']}:", True, 9)
        for value in (customer, customer_street, customer_city):
            writer.y += 12
            writer.line(value, size=10)
        writer.y += 28
        for label, value in ((text["number"], invoice["number"]), (text["date"], invoice["date"]),
                             (text["delivery"], invoice["delivery"]), (text["customer"], str(customer_no))):
            writer.line(f"{label}:", size=9.5)
            writer.line(value, size=9.5, x=200)
            writer.y += 13
        writer.y += 20
        columns = ((LEFT, "start"), (360, "end"), (440, "end"), (RIGHT, "end"))
        for (x, align), label in zip(columns, text["cols"], strict=False):
            writer.line(label, True, 9.5, x=x, align=align)
        writer.y += 16
        for item, quantity, price, amount in invoice["lines"]:
            for (x, align), value in zip(columns, (ITEMS[lang][item][0], str(quantity), money(lang, price),
                                                   money(lang, amount)), strict=False):
                writer.line(value, size=9.5, x=x, align=align)
            writer.y += 14
        writer.y += 12
        for label, value, bold in ((text["net"], invoice["net"], False),
                                   (str(text["vat"]).format(rate=text["rate"]), invoice["vat"], False),
                                   (text["total"], invoice["net"] + invoice["vat"], True)):
            writer.line(label, bold, 10, x=410, align="end")
            writer.line(money(lang, value), bold, 10, x=RIGHT, align="end")
            writer.y += 14
        writer.y += 16
        writer.paragraph(str(text["pay"]).format(days=invoice["days"], number=invoice["number"],
                                                 iban=invoice["account"]), size=9.5)
        writer.paragraph(invoice["note"], size=9.5)
        writer.line(str(text["footer"]).format(supplier=supplier_name, city=city, vat_id=invoice["vat_id"]), size=7.5,
                    y=BOTTOM - 4)
    texts = writer.save(path, cover, cover, _footer(lang))
    return texts, {id(t): t.page for t in plan.targets}


def _draw_tenancy(lang: str, target: Target | None, reservations: Reservations,
                  rng: random.Random) -> tuple[tuple[int, int], int, int, int, list[int]]:
    """A contract's tenant, street, landlord's street, premises and special agreements: the
    target's where it has them, the rest drawn so that no other target's reserved combination
    comes out (page 1 names both streets)."""
    for _ in range(200):
        tenant = target.tenant if target else (rng.randrange(len(FIRST_NAMES[lang])), rng.randrange(len(SURNAMES[lang])))
        street = target.street if target and target.kind == "cover" else rng.randrange(len(STREETS[lang]))
        landlord_street = rng.randrange(len(STREETS[lang]))
        premises = target.premises if target and target.kind == "cover" else rng.randrange(len(PREMISES[lang]))
        name = tenant_key(lang, tenant)
        own = (lang, name, target.street, target.premises) if target and target.kind == "cover" else None
        if any(combo in reservations.covers and combo != own
               for combo in ((lang, name, street, premises), (lang, name, landlord_street, premises))):
            continue
        specials = [target.special] if target and target.kind == "special" else []
        for candidate in rng.sample(range(len(SPECIALS[lang])), rng.randint(1, 2)):
            if candidate not in specials and (lang, name, candidate) not in reservations.specials:
                specials.append(candidate)
        if specials:
            return tenant, street, landlord_street, premises, specials
    raise RuntimeError(f"no tenancy could be drawn for {lang}")


def write_contract(plan: DocPlan, path: Path, seed: int, reservations: Reservations) -> tuple[list[str], dict[int, int]]:
    """A lease agreement: parties and premises on page 1, numbered clauses, the special agreements,
    signatures, then annexes (inventory, house rules, handover record) up to the planned length."""
    lang, text = plan.lang, CONTRACT_TEXT[plan.lang]
    rng = _doc_rng(plan, seed)
    writer = Writer(lang)
    target = plan.targets[0] if plan.targets else None
    tenant, street, landlord_street, premises, specials = _draw_tenancy(lang, target, reservations, rng)
    first, surname = FIRST_NAMES[lang][tenant[0]], SURNAMES[lang][tenant[1]]
    name = surname + first if lang in ("zh", "ja") else f"{first} {surname}"
    landlord = rng.choice(LANDLORDS[lang])
    city = rng.choice(CITIES[lang])
    unit = {"en": 1.0, "de": 1.15, "ru": 90.0, "zh": 9.0, "ja": 1.0, "ar": 4.7}[lang]  # money() multiplies yen by 10
    rent = rng.randint(45, 180) * 10 * unit
    values = {
        "number": f"{plan.year}-{rng.randint(100, 999)}-{plan.index:05d}", "landlord": landlord,
        "lstreet": STREETS[lang][landlord_street][0].format(no=rng.randint(1, 120)),
        "lcity": rng.choice(CITIES[lang]), "first": first, "surname": surname, "name": name,
        "birth": date_text(lang, rng.randint(1950, 2002), rng.randint(1, 12), rng.randint(1, 28)),
        "premises": PREMISES[lang][premises][0], "street": STREETS[lang][street][0].format(no=rng.randint(1, 120)),
        "city": city, "area": rng.randint(18, 140), "keys": rng.randint(2, 5),
        "start": date_text(lang, plan.year, plan.month, 1), "notice": rng.choice((1, 2, 3)), "rent": money(lang, rent),
        "service": money(lang, rent * rng.uniform(0.12, 0.3)), "deposit": money(lang, rent * rng.choice((1, 2, 3))),
        "weeks": rng.choice((4, 6, 8, 12)), "minor": money(lang, rng.choice((75, 100, 120)) * unit),
        "cap": money(lang, rng.choice((300, 400, 500)) * unit), "hours": rng.choice((24, 48, 72)),
        "date": date_text(lang, plan.year, plan.month, rng.randint(1, 28))}

    def block(heading: str, paragraphs: list[str]) -> int:
        need = writer.height(heading, True, 11, gap=3) + sum(writer.height(p, size=10.5) for p in paragraphs) + 8
        if need > writer.room():
            writer.new_page()
        writer.y += 8
        writer.paragraph(heading, True, 11, gap=3, force=True)
        for paragraph in paragraphs:
            writer.paragraph(paragraph, size=10.5, force=True)
        return writer.number

    writer.new_page()
    writer.y += 10
    writer.line(str(text["title"]), True, 18, x=PAGE_W / 2, align="center")
    writer.y += 24
    writer.line(str(text["number"]).format(**values), size=10, x=PAGE_W / 2, align="center")
    writer.y += 20
    for key in ("between", "landlord_line", "and_", "tenant_line"):
        if text[key]:
            writer.paragraph(str(text[key]).format(**values), size=10.5, gap=4)
    heading, paragraph = text["premises"]
    block(heading, [paragraph.format(**values)])
    sections = list(text["sections"])
    for drop in rng.sample(range(3, len(sections)), rng.randint(0, 2)):
        sections[drop] = None
    number = 1
    for section in sections:
        if section is None:
            continue
        number += 1
        block(str(text["section"]).format(n=number, title=section[0]), [section[1].format(**values)])
    number += 1
    special_page = block(str(text["section"]).format(n=number, title=text["special_heading"]),
                         [str(text["special_intro"]).format(**values)] + [SPECIALS[lang][s][0] for s in specials])
    number += 1
    block(str(text["section"]).format(n=number, title=text["final"][0]), [text["final"][1]])
    if writer.room() < 90:
        writer.new_page()
    writer.y += 24
    writer.paragraph(str(text["signed"]).format(**values), size=10.5, gap=30)
    writer.paragraph(str(text["sign_landlord"]).format(**values), size=10.5, gap=30)
    writer.paragraph(str(text["sign_tenant"]).format(**values), size=10.5)
    annex = 0
    while writer.number < plan.pages:
        annex += 1
        writer.new_page()
        kind = annex % 3
        if kind == 1:
            writer.paragraph(str(text["annex_inventory"]).format(k=annex), True, 12, gap=10)
            for room in rng.sample(text["rooms"], len(text["rooms"])):
                things = rng.sample(text["fixtures"], rng.randint(3, 6))
                entries = [f"{rng.randint(1, 4)} x {thing}: {rng.choice(text['condition'])}" for thing in things]
                separator = "；" if lang in ("zh", "ja") else "، " if lang == "ar" else "; "
                if not writer.paragraph(f"{room}: " + separator.join(entries), size=10.5):
                    break
        elif kind == 2:
            writer.paragraph(str(text["rules_heading"]).format(k=annex), True, 12, gap=10)
            for rule in text["rules"]:
                writer.paragraph(rule, size=10.5)
        else:
            writer.paragraph(str(text["annex_meters"]).format(k=annex), True, 12, gap=10)
            for line in text["meters"]:
                writer.paragraph(line.format(m=rng.randint(100000, 999999), v=rng.randint(100, 99999),
                                             k=rng.randint(1, 4), k2=rng.randint(1, 2)), size=10.5)
            writer.paragraph(str(text["signed"]).format(**values), size=10.5)
    header = str(text["header"]).format(**values)
    texts = writer.save(path, header, header, _footer(lang))
    pages = {}
    if target is not None:
        pages[id(target)] = 1 if target.kind == "cover" else special_page
    return texts, pages


def write_document(plan: DocPlan, folder: Path, seed: int, reservations: Reservations) -> tuple[list[str], dict[int, int]]:
    """Write one planned document; returns each page's text and the page of each of its targets."""
    path = folder / plan.rel
    if plan.kind == "manual":
        return write_manual(plan, path, seed)
    if plan.kind == "invoice":
        return write_invoices(plan, path, seed, reservations)
    return write_contract(plan, path, seed, reservations)


# ================================================================================================
# The library


def half_of(name: str) -> str:
    """tune or report, stable per file name, so that all queries of a document are on one side."""
    return "tune" if zlib.crc32(name.encode()) % 2 == 0 else "report"


def _queries_from(manifest: dict, folder: Path) -> list[LibraryQuery]:
    return [LibraryQuery(q["text"], folder / q["path"], q["page"], q["script"], q["half"]) for q in manifest["queries"]]


def _read_manifest(path: Path) -> dict | None:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def build_library(folder: Path, documents: int, seed: int = 7,
                  progress: Callable[[int, int], None] | None = None) -> list[LibraryQuery]:
    """Write `documents` PDFs into folder (subfolders allowed), return the known-item queries. Reuses files already there from an earlier run with the same arguments (write a manifest JSON with the queries; regenerate only when missing or the arguments changed), so the 10,000-document library is generated once."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    manifest_path = folder / MANIFEST
    old = _read_manifest(manifest_path)
    same = old is not None and old.get("complete") and \
        (old.get("generator"), old.get("documents"), old.get("seed")) == (GENERATOR, documents, seed)
    if same:
        missing = {rel for rel in old["files"] if not (folder / rel).exists()}
        if missing:  # written again exactly as before: the plan and every document come from the seed
            plans, reservations = plan_library(documents, seed)
            todo = [plan for plan in plans if plan.rel in missing]
            for done, plan in enumerate(todo, start=1):
                write_document(plan, folder, seed, reservations)
                if progress:
                    progress(done, len(todo))
        return _queries_from(old, folder)
    started_wall, started_cpu = time.perf_counter(), time.process_time()
    plans, reservations = plan_library(documents, seed)
    if old is not None:  # the files of an earlier library (finished or not) that this one does not have
        keep = {plan.rel for plan in plans}
        for rel in old.get("files", []):
            if rel not in keep:
                (folder / rel).unlink(missing_ok=True)
    # Until the end, the manifest only lists the files (so that an interrupted build is neither
    # reused nor leaves files behind that a later build would not know to remove).
    manifest_path.write_text(json.dumps({"generator": GENERATOR, "documents": documents, "seed": seed,
                                         "complete": False, "files": [plan.rel for plan in plans]}), encoding="utf-8")
    universe = {key for plan in plans for target in plan.targets for query in target.queries
                for term in query_terms(query, plan.script) for key in term}
    index = KeyIndex(universe)
    page_ids: dict[tuple[str, int], int] = {}
    placed: list[tuple[DocPlan, Target, int]] = []
    pages_per: Counter[str] = Counter()
    for done, plan in enumerate(plans, start=1):
        texts, target_pages = write_document(plan, folder, seed, reservations)
        for number, text in enumerate(texts, start=1):
            page_ids[(plan.rel, number)] = len(index.pages)
            index.add(plan.rel, number, text)
        pages_per[plan.script] += len(texts)
        placed.extend((plan, target, target_pages.get(id(target), target.page)) for target in plan.targets)
        if progress:
            progress(done, len(plans))
    # Keep the queries whose words are all on their page and on no other page.
    kept: dict[str, list[dict]] = defaultdict(list)
    dropped: Counter[str] = Counter()
    for plan, target, page in placed:
        target_id = page_ids.get((plan.rel, page))
        for query in target.queries:
            pages = index.pages_with(query, plan.script)
            if target_id is None or target_id not in pages or len(pages) > 1:
                dropped[plan.script] += 1
                continue
            kept[plan.script].append({
                "text": query, "path": plan.rel, "page": page, "script": plan.script,
                "half": half_of(Path(plan.rel).name), "kind": target.kind, "lang": plan.lang,
                "rare_words": index.rare_words(query, plan.script, target_id), "order": target.order})
    queries = []
    for script in SCRIPTS:
        quota = query_quota(sum(1 for p in plans if p.script == script))
        ordered = sorted(kept[script], key=lambda q: (q["kind"] != "hand", q.pop("order")))
        hand = [q for q in ordered if q["kind"] == "hand"][:quota]
        queries += hand + [q for q in ordered if q["kind"] != "hand"][:quota - len(hand)]
    seconds, cpu = time.perf_counter() - started_wall, time.process_time() - started_cpu
    total_pages = sum(pages_per.values())
    manifest = {
        "generator": GENERATOR, "documents": documents, "seed": seed, "complete": True, "pages": total_pages,
        "seconds": round(seconds, 1), "cpu_seconds": round(cpu, 1),
        "scripts": {s: {"documents": sum(1 for p in plans if p.script == s), "pages": pages_per[s],
                         "queries": sum(1 for q in queries if q["script"] == s), "not_unique": dropped[s]} for s in SCRIPTS},
        "files": [plan.rel for plan in plans], "queries": queries}
    manifest_path.write_text(json.dumps(manifest, ensure_ascii=False, indent=1), encoding="utf-8")
    return _queries_from(manifest, folder)


# ================================================================================================
# Checking a written library through its text layer


def check_library(folder: Path, queries: Iterable[LibraryQuery],
                  progress: Callable[[int, int], None] | None = None) -> dict:
    """Read every page of the library with PyMuPDF and report, per query: the words missing from
    its page, how many other pages have all of its words, and how many of its words are on no
    other page (a query that one rare word finds alone tests little)."""
    folder = Path(folder)
    queries = list(queries)
    universe = {key for q in queries for term in query_terms(q.text, q.script) for key in term}
    index = KeyIndex(universe)
    texts: dict[tuple[Path, int], str] = {}
    wanted = {(q.path, q.page) for q in queries}
    files = sorted(folder.rglob("*.pdf"))
    ids: dict[tuple[Path, int], int] = {}
    for done, path in enumerate(files, start=1):
        with pymupdf.open(path) as pdf:
            for number, page in enumerate(pdf, start=1):
                text = page.get_text()
                ids[(path, number)] = len(index.pages)
                index.add(str(path.relative_to(folder)), number, text)
                if (path, number) in wanted:
                    texts[(path, number)] = text
        if progress:
            progress(done, len(files))
    rows = []
    for query in queries:
        target = ids.get((query.path, query.page))
        text = texts.get((query.path, query.page), "")
        others = index.pages_with(query.text, query.script) - {target}
        rows.append({"query": query.text, "script": query.script, "half": query.half, "path": str(query.path), "page": query.page,
                         "missing": has_words(text, query.text, query.script), "others": len(others),
                         "rare_words": index.rare_words(query.text, query.script, target) if target is not None else -1})
    return {"files": len(files), "pages": len(index.pages), "rows": rows}


def _main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("documents", type=int)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--check", action="store_true", help="re-read every page and check each query's words")
    args = parser.parse_args()

    def report(done: int, total: int) -> None:
        if done == total or done % max(1, total // 20) == 0:
            print(f"  {done}/{total}", file=sys.stderr, flush=True)

    started = time.perf_counter()
    queries = build_library(args.folder, args.documents, args.seed, report)
    manifest = _read_manifest(args.folder / MANIFEST) or {}
    print(f"{manifest.get('documents')} documents, {manifest.get('pages')} pages, generated in "
          f"{manifest.get('seconds')} s ({manifest.get('cpu_seconds')} s CPU): "
          f"{manifest.get('pages', 0) / max(manifest.get('cpu_seconds') or 1, 1e-9):.0f} pages per CPU second"
          f" (this call: {time.perf_counter() - started:.1f} s)")
    for script, stats in manifest.get("scripts", {}).items():
        halves = Counter(q.half for q in queries if q.script == script)
        print(f"  {script:9} {stats['documents']:6} documents {stats['pages']:7} pages  {stats['queries']:4} queries "
              f"(tune {halves['tune']}, report {halves['report']}; {stats['not_unique']} dropped as not unique)")
    kinds = Counter((q["script"], q["kind"]) for q in manifest.get("queries", []))
    print("  queries by kind:", ", ".join(f"{s}/{k} {n}" for (s, k), n in sorted(kinds.items())))
    if args.check:
        result = check_library(args.folder, queries, report)
        rows = result["rows"]
        print(f"check: {result['files']} files, {result['pages']} pages read")
        for script in SCRIPTS:
            mine = [r for r in rows if r["script"] == script]
            if not mine:
                continue
            others = Counter(min(r["others"], 5) for r in mine)
            print(f"  {script:9} {len(mine):4} queries: words missing on the target {sum(1 for r in mine if r['missing'])}, "
                  f"other pages with all words " + " ".join(f"{k if k < 5 else '5+'}:{v}" for k, v in sorted(others.items()))
                  + f", queries with a word on no other page {sum(1 for r in mine if r['rare_words'] > 0)}")
        for row in rows:
            if row["missing"] or row["others"]:
                print(f"    {row['script']}: {row['query']!r} {row['path']} p{row['page']}: missing {row['missing']}, "
                      f"{row['others']} other pages")
    return 0


if __name__ == "__main__":
    sys.exit(_main())
