"""Prose documents in four scripts, laid out by PyMuPDF's HTML engine (Story) in fonts MuPDF ships.

`prose_pdf(path, script, pages)` writes report-like pages (numbered section headings, paragraphs of
sentences drawn from a few dozen phrases, figures and percentages) in Latin, CJK
(Chinese and Japanese sections), Arabic (right to left) or Cyrillic (Russian). Each script is set in
one font, as office exports do: Droid Sans Fallback for CJK, Noto Naskh Arabic, Charis SIL for the
rest. The extraction tests and bench/tools_bench.py use them; `expected_phrases` gives phrases the
text of a document must contain.

Arabic is shaped here into presentation forms (U+FB50-U+FEFF) before layout, as many PDF
generators do. MuPDF's own shaping leaves contextual forms of lam without a Unicode mapping, so
their words would come back with U+FFFD; presentation forms map one glyph to one code point, and
NFKC turns them back into the letters a user types.
"""

from __future__ import annotations

import random
import unicodedata
from collections.abc import Iterator
from pathlib import Path

import pymupdf

SCRIPTS = ("latin", "cjk", "arabic", "cyrillic")

PHRASES = {
    "latin": (
        "the committee reviewed the supply agreements of every region",
        "payment schedules slipped in each quarter of the year",
        "the auditors found warranty clauses that conflict with the master policy",
        "some contractor records were missing their signatures",
        "software licences exceeded the number of seats purchased",
        "service availability fell below the agreed level during maintenance",
        "the finance office proposed a new method for penalty interest",
        "insurance certificates expired before they were renewed",
        "management promised to complete the corrections next financial year",
        "regional offices have not yet approved the amendments",
        "revenue forecasts must absorb the effect of late payment interest",
        "the termination notice period differs from the framework agreement",
    ),
    "zh": (
        "委员会审查了各地区的供货合同", "付款期限在每个季度都有所推迟", "审计人员指出保修条款与总政策相冲突",
        "部分分包商的记录缺少签字", "软件许可证的使用数量超过了采购数量", "维护期间的服务可用性低于约定水平",
        "财务部门建议重新评估违约金的计算方法", "保险证书在续期之前已经过期", "管理层承诺在下一财年完成整改",
        "区域办事处尚未批准合同修订", "收入预测需要考虑罚息的影响", "终止通知的期限与主协议不一致",
    ),
    "ja": (
        "委員会は各地域の供給契約を審査した", "支払期限は四半期ごとに遅れていた",
        "監査人は保証条項が基本方針と矛盾していると指摘した", "一部の下請業者の記録には署名が欠けていた",
        "ソフトウェアのライセンス数が購入数を上回っていた", "保守期間中のサービス稼働率は合意した水準を下回った",
        "経理部は違約金の計算方法を見直すよう提案した", "保険証書は更新前に失効していた",
        "経営陣は次の会計年度中に改善を完了すると約束した", "地域事務所はまだ契約の修正を承認していない",
    ),
    "arabic": (
        "راجعت اللجنة عقود التوريد في جميع المناطق", "تأخرت مواعيد الدفع في كل ربع من السنة",
        "لاحظ المدققون أن بنود الضمان تتعارض مع السياسة العامة", "سجلات بعض المقاولين تفتقر إلى التوقيعات",
        "تجاوز عدد تراخيص البرامج العدد الذي تم شراؤه", "انخفض توفر الخدمة عن المستوى المتفق عليه أثناء الصيانة",
        "اقترحت الإدارة المالية مراجعة طريقة حساب الغرامات", "انتهت صلاحية شهادات التأمين قبل تجديدها",
        "تعهدت الإدارة باستكمال الإصلاحات في السنة المالية القادمة",
        "لم توافق المكاتب الإقليمية بعد على تعديل العقد",
        "يجب أن تأخذ توقعات الإيرادات في الحسبان أثر الفوائد المتأخرة",
        "مدة إشعار الإنهاء لا تتفق مع الاتفاقية الرئيسية",
    ),
    "cyrillic": (
        "комиссия проверила договоры поставки во всех регионах", "сроки оплаты нарушались в каждом квартале",
        "аудиторы отметили, что гарантийные условия противоречат общей политике",
        "в записях некоторых подрядчиков отсутствуют подписи", "число лицензий на программы превысило число купленных",
        "во время обслуживания доступность сервиса была ниже согласованного уровня",
        "финансовый отдел предложил пересмотреть расчёт штрафов", "страховые сертификаты истекли до продления",
        "руководство обязалось завершить исправления в следующем финансовом году",
        "региональные офисы ещё не утвердили поправки к договору", "прогноз выручки должен учитывать влияние пени",
        "срок уведомления о расторжении не совпадает с основным соглашением",
    ),
}
HEADINGS = {
    "latin": ("Findings", "Background", "Scope of review", "Financial exposure", "Contract terms", "Open questions"),
    "zh": ("审计结果", "背景", "审查范围", "财务风险", "合同条款", "待解决的问题"),
    "ja": ("監査の結果", "背景", "審査の範囲", "財務上のリスク", "契約条件", "未解決の問題"),
    "arabic": ("نتائج المراجعة", "خلفية", "نطاق المراجعة", "المخاطر المالية", "شروط العقد", "مسائل مفتوحة"),
    "cyrillic": ("Результаты проверки", "Предыстория", "Объём проверки", "Финансовые риски", "Условия договора",
                 "Открытые вопросы"),
}
# Sentence punctuation: phrase joiner, sentence end, a figure; section heading format.
STYLE = {
    "latin": (", and ", ". ", " ({pct}%)", "{n}. {title}"),
    "zh": ("，", "。", "（{pct}%）", "第{n}章 {title}"),
    "ja": ("、", "。", "（{pct}%）", "第{n}章 {title}"),
    "arabic": ("، و", ". ", " ({pct}%)", "القسم {n}: {title}"),
    "cyrillic": (", а также ", ". ", " ({pct}%)", "Раздел {n}. {title}"),
}
FONTS = {"cjk": ("china-s", None), "arabic": (None, pymupdf.mupdf.UCDN_SCRIPT_ARABIC)}
PAGE = pymupdf.paper_rect("a4")
MARGIN = 62
CHARS_PER_PAGE = {"latin": 3600, "cjk": 1500, "arabic": 2600, "cyrillic": 3600}


def _sentence(rng: random.Random, language: str) -> str:
    joiner, end, figure, _ = STYLE[language]
    text = joiner.join(rng.sample(PHRASES[language], rng.randint(1, 2)))
    if rng.random() < 0.3:
        text += figure.format(pct=rng.randint(2, 97))
    if language in ("latin", "cyrillic"):
        text = text[0].upper() + text[1:]
    return text + end.strip()


def _section(rng: random.Random, language: str, number: int) -> str:
    heading = STYLE[language][3].format(n=number, title=rng.choice(HEADINGS[language]))
    paragraphs = []
    for _ in range(rng.randint(2, 5)):
        glue = "" if language in ("zh", "ja") else " "
        paragraphs.append(glue.join(_sentence(rng, language) for _ in range(rng.randint(3, 7))))
    body = "".join(f"<p>{p}</p>" for p in paragraphs)
    return f"<h2>{heading}</h2>{body}"


def _chapters(script: str, seed: int) -> Iterator[str]:
    """HTML for chapters of about ten pages each, endlessly. A chapter starts a new page and is
    laid out on its own: MuPDF's layout time grows faster than the length of right-to-left text."""
    rng = random.Random(seed)
    number = 0
    while True:
        sections, chars = [], 0
        while chars < 10 * CHARS_PER_PAGE[script]:
            number += 1
            language = ("zh", "ja")[number % 2] if script == "cjk" else script
            sections.append(_section(rng, language, number))
            chars += len(sections[-1])
        html = "".join(sections)
        yield shape_arabic(html) if script == "arabic" else html


def _story(script: str, html: str) -> pymupdf.Story:
    css = "body {font-size: 10.5pt;} h2 {font-size: 14pt; margin-top: 6pt;}"
    archive = None
    if script in FONTS:
        name, code = FONTS[script]
        font = pymupdf.Font(name) if name else pymupdf.Font(script=code)
        archive = pymupdf.Archive()
        archive.add(font.buffer, "body.font")
        css += " @font-face {font-family: body; src: url(body.font);} body, h2 {font-family: body;}"
    direction = ' dir="rtl"' if script == "arabic" else ""
    return pymupdf.Story(f"<body{direction}>{html}</body>", user_css=css, archive=archive)


def prose_pdf(path: Path, script: str, pages: int = 6, seed: int = 1) -> Path:
    """`pages` A4 pages of prose in `script` (one of SCRIPTS), each numbered in its footer."""
    chapters = _chapters(script, seed)
    writer = pymupdf.DocumentWriter(str(path))
    body = PAGE + (MARGIN, MARGIN, -MARGIN, -MARGIN)  # noqa: RUF005 - a Rect moved inwards, not joined
    footer = pymupdf.Rect(MARGIN, PAGE.height - MARGIN + 20, PAGE.width - MARGIN, PAGE.height - 20)
    more = False
    for number in range(1, pages + 1):
        if not more:
            story = _story(script, next(chapters))
        device = writer.begin_page(PAGE)
        more, _filled = story.place(body)
        story.draw(device)
        folio = pymupdf.Story(f'<p style="text-align: center; font-size: 8pt">- {number} -</p>')
        folio.place(footer)
        folio.draw(device)
        writer.end_page()
    writer.close()
    return path


def expected_phrases(script: str) -> list[str]:
    """Phrases every document of `script` is made of (as extraction returns them, after NFKC)."""
    languages = ("zh", "ja") if script == "cjk" else (script,)
    return [phrase for language in languages for phrase in PHRASES[language]]


def _presentation_forms() -> dict[tuple[str, str], str]:
    """(letters, "isolated"/"final"/"initial"/"medial") -> the Arabic presentation form, from the
    Unicode decompositions of U+FE70-U+FEFC (lam-alef ligatures included)."""
    forms = {}
    for code in range(0xFE70, 0xFEFD):
        tag, *letters = (unicodedata.decomposition(chr(code)) or "x").split()
        if tag in ("<isolated>", "<final>", "<initial>", "<medial>") and letters:
            forms["".join(chr(int(c, 16)) for c in letters), tag[1:-1]] = chr(code)
    return forms


_FORMS = _presentation_forms()


def _joins(letter: str, side: str) -> bool:
    """Whether `letter` connects to the letter after it ("initial") or before it ("final")."""
    return (letter, side) in _FORMS


def shape_arabic(text: str) -> str:
    """`text` with its Arabic letters in presentation forms: each takes its isolated, final,
    initial or medial form by whether it joins its neighbours, and lam then alef becomes one
    ligature. Logical order is kept; the layout engine places them right to left."""
    out: list[str] = []
    i = 0
    while i < len(text):
        letter = text[i]
        after = text[i + 1] if i + 1 < len(text) else ""
        linked = i > 0 and _joins(text[i - 1], "initial") and _joins(letter, "final")
        if letter == "ل" and after and after in "اأإآ":
            out.append(_FORMS[letter + after, "final" if linked else "isolated"])
            i += 2
            continue
        following = bool(after) and _joins(letter, "initial") and _joins(after, "final")
        form = ("medial" if following else "final") if linked else ("initial" if following else "isolated")
        out.append(_FORMS.get((letter, form), _FORMS.get((letter, "isolated"), letter)))
        i += 1
    return "".join(out)
