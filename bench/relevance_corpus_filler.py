"""Filler pages for the relevance corpus: the long stretches of a real manual between the passages
that queries target, so that a document has tens of pages and hit@10 means something.

A filler page is paragraphs of reference / changelog statements about the document's own topics,
each with its own numbers ("Colour cycles: the limit was raised from 12 to 40 in release 3.2."), a
generic documentation sentence and now and then a cross-reference ("For related information, see
Colour cycles."): specific, varied text as on most pages of a real manual, rather than the same few
boilerplate sentences everywhere (which an embedding model ranks near every question). No query
targets a filler page.
"""

from __future__ import annotations

import random

GENERIC = {
    "en": [
        "The values given in this chapter apply to all models unless a note says otherwise.",
        "Read the whole section before you change anything, and keep a record of the original settings.",
        "Illustrations may differ slightly from what you see; the procedure is the same.",
        "If you are unsure whether a step applies to you, ask the person responsible for your installation.",
        "Earlier editions of this document described a different procedure, which is no longer recommended.",
        "All measurements are given in metric units; conversions are rounded to the nearest whole number.",
        "The next paragraphs summarise the questions that readers have asked most often about this topic.",
        "Names of buttons, menus and settings are printed in bold in the printed edition.",
        "A checklist at the end of the chapter lists every step in order.",
        "Where several methods are described, the first one is usually the simplest.",
        "Changes made here take effect immediately and do not require a restart.",
        "The defaults were chosen to suit most readers and rarely need adjusting.",
        "Keep this document in a safe place so that you can consult it later.",
        "Some of the options described here are only available in recent versions.",
        "Contact the support team if the problem persists after following these steps.",
        "This behaviour is intentional and is kept for compatibility with older versions.",
    ],
    "de": [
        "Die Angaben in diesem Kapitel gelten allgemein, sofern nichts anderes angegeben ist.",
        "Lesen Sie den gesamten Abschnitt, bevor Sie Änderungen vornehmen.",
        "Abbildungen können von der Wirklichkeit leicht abweichen; die Vorgehensweise bleibt gleich.",
        "Bewahren Sie diese Unterlagen sorgfältig auf, damit Sie später darin nachschlagen können.",
        "Frühere Fassungen dieses Dokuments beschrieben ein anderes Verfahren, das nicht mehr empfohlen wird.",
        "Alle Maße sind in metrischen Einheiten angegeben.",
        "Die folgenden Hinweise fassen die häufigsten Fragen zu diesem Thema zusammen.",
        "Bezeichnungen von Tasten und Menüs sind in der gedruckten Ausgabe fett gedruckt.",
        "Werden mehrere Möglichkeiten beschrieben, ist die erste meist die einfachste.",
        "Änderungen werden sofort wirksam.",
        "Die Voreinstellungen eignen sich für die meisten Fälle und müssen selten angepasst werden.",
        "Einige der beschriebenen Regelungen gelten erst seit der letzten Änderung.",
        "Wenden Sie sich an die zuständige Stelle, wenn Fragen offen bleiben.",
        "Dieses Vorgehen ist beabsichtigt und dient der Einheitlichkeit mit älteren Fassungen.",
    ],
    "ru": [
        "Сведения, приведённые в этой главе, относятся ко всем случаям, если не указано иное.",
        "Прочитайте раздел полностью, прежде чем вносить изменения.",
        "Иллюстрации могут незначительно отличаться от действительности; порядок действий от этого не меняется.",
        "Храните этот документ в надёжном месте, чтобы при необходимости обратиться к нему позже.",
        "В прежних редакциях документа описывался другой порядок, который больше не рекомендуется.",
        "Все размеры указаны в метрических единицах.",
        "Ниже собраны ответы на вопросы, которые задают чаще всего.",
        "Если описано несколько способов, первый обычно самый простой.",
        "Изменения вступают в силу сразу.",
        "Значения по умолчанию подходят для большинства случаев.",
        "Некоторые положения действуют только с последней редакции.",
        "Если вопрос остаётся нерешённым, обратитесь к ответственному сотруднику.",
        "Такой порядок предусмотрен намеренно и сохранён для единообразия с прежними редакциями.",
        "Контрольный список в конце главы перечисляет все шаги по порядку.",
    ],
    "el": [
        "Οι πληροφορίες αυτού του κεφαλαίου ισχύουν για όλους τους πελάτες, εκτός αν αναφέρεται διαφορετικά.",
        "Διαβάστε ολόκληρη την ενότητα πριν κάνετε οποιαδήποτε αλλαγή.",
        "Οι εικόνες μπορεί να διαφέρουν ελαφρώς από αυτές που βλέπετε στην οθόνη σας.",
        "Φυλάξτε αυτόν τον οδηγό για να τον συμβουλευτείτε αργότερα.",
        "Παλαιότερες εκδόσεις του οδηγού περιέγραφαν διαφορετική διαδικασία, η οποία δεν συνιστάται πλέον.",
        "Στις επόμενες παραγράφους συνοψίζονται οι πιο συχνές ερωτήσεις των χρηστών.",
        "Όταν περιγράφονται περισσότεροι τρόποι, ο πρώτος είναι συνήθως ο απλούστερος.",
        "Οι αλλαγές ισχύουν αμέσως και δεν απαιτούν επανεκκίνηση.",
        "Οι προεπιλεγμένες τιμές καλύπτουν τις ανάγκες των περισσότερων χρηστών.",
        "Ορισμένες λειτουργίες είναι διαθέσιμες μόνο στις νεότερες εκδόσεις της εφαρμογής.",
        "Αν το πρόβλημα παραμένει, επικοινωνήστε με την εξυπηρέτηση πελατών.",
        "Η συμπεριφορά αυτή είναι σκόπιμη και διατηρείται για λόγους συμβατότητας.",
    ],
    "zh": [
        "本章所述内容适用于所有型号，另有说明的除外。",
        "在进行任何更改之前，请先阅读整个章节。",
        "图示可能与实际产品略有不同，但操作步骤相同。",
        "请妥善保管本说明书，以便日后查阅。",
        "旧版说明书中介绍的方法已不再推荐使用。",
        "以下内容汇总了用户最常提出的问题。",
        "如介绍了多种方法，第一种通常最为简单。",
        "更改会立即生效，无需重新启动。",
        "默认设置适用于大多数用户，一般无需调整。",
        "部分功能仅在较新的版本中提供。",
        "如果问题仍然存在，请联系客服。",
        "此行为是有意设计的，用于与旧版本保持兼容。",
    ],
    "ja": [
        "この章の内容は、特に記載がない限りすべての機種に共通です。",
        "操作を始める前に、この項目を最後までお読みください。",
        "イラストは実際の製品と多少異なる場合がありますが、操作方法は同じです。",
        "この説明書は、いつでも見られる場所に大切に保管してください。",
        "以前の説明書に記載されていた方法は、現在はおすすめしていません。",
        "以下に、よくあるご質問をまとめました。",
        "複数の方法がある場合は、最初の方法がもっとも簡単です。",
        "設定の変更はすぐに反映されます。",
        "お買い上げ時の設定は、ほとんどのご家庭に適しています。",
        "一部の機能は、新しいモデルでのみ使用できます。",
        "それでも解決しない場合は、お客様相談窓口にご連絡ください。",
        "この動作は故障ではありません。",
    ],
    "ar": [
        "تنطبق المعلومات الواردة في هذا الفصل على جميع الحالات ما لم يذكر خلاف ذلك.",
        "اقرأ القسم كاملا قبل إجراء أي تغيير.",
        "قد تختلف الصور قليلا عن الواقع، لكن الخطوات هي نفسها.",
        "احتفظ بهذا الدليل في مكان آمن للرجوع إليه لاحقا.",
        "وصفت الإصدارات السابقة من هذا الدليل طريقة مختلفة لم يعد ينصح بها.",
        "تلخص الفقرات التالية أكثر الأسئلة شيوعا.",
        "إذا وصفت عدة طرق، فالطريقة الأولى هي الأبسط عادة.",
        "تسري التغييرات فورا ولا تتطلب إعادة التشغيل.",
        "الإعدادات الافتراضية مناسبة لمعظم المستخدمين.",
        "بعض الميزات متاحة فقط في الإصدارات الحديثة.",
        "إذا استمرت المشكلة فاتصل بفريق الدعم.",
        "هذا السلوك مقصود ويحافظ على التوافق مع الإصدارات القديمة.",
    ],
    "fa": [
        "مطالب این فصل برای همه دانشجویان معتبر است مگر آنکه خلاف آن ذکر شود.",
        "پیش از هر تغییری کل این بخش را بخوانید.",
        "نمونه~های این راهنما ممکن است با قالب نهایی کمی تفاوت داشته باشند.",
        "این راهنما را نگه دارید تا بعدا به آن مراجعه کنید.",
        "نسخه~های پیشین این راهنما روش دیگری را شرح می~دادند که دیگر توصیه نمی~شود.",
        "در بندهای بعد پرسش~های رایج دانشجویان خلاصه شده است.",
        "اگر چند روش شرح داده شده باشد، روش نخست معمولا ساده~تر است.",
        "تغییرات بلافاصله اعمال می~شوند.",
        "تنظیمات پیش~فرض برای بیشتر پایان~نامه~ها مناسب است.",
        "برخی امکانات فقط در نسخه~های جدید قالب وجود دارد.",
        "اگر مشکل برطرف نشد با دفتر آموزش دانشکده تماس بگیرید.",
        "این رفتار عمدی است و برای سازگاری با نسخه~های قدیمی حفظ شده است.",
    ],
}

MENTIONS = {
    "en": ["For related information, see {title}.", "The same rules apply as in {title}.",
           "This does not affect what is described under {title}.",
           "Readers who skipped {title} may want to go back to it first.",
           "Questions about {title} are answered in the corresponding section."],
    "de": ["Weitere Informationen finden Sie unter {title}.", "Es gelten dieselben Regeln wie unter {title}.",
           "Die Angaben unter {title} bleiben davon unberührt.",
           "Wer {title} übersprungen hat, sollte diesen Abschnitt zuerst lesen."],
    "ru": ["Подробнее см. раздел «{title}».", "Действуют те же правила, что и в разделе «{title}».",
           "Это не затрагивает сведения из раздела «{title}».",
           "Вопросы по теме «{title}» рассмотрены в соответствующем разделе."],
    "el": ["Για σχετικές πληροφορίες δείτε την ενότητα «{title}».", "Ισχύουν οι ίδιοι κανόνες με την ενότητα «{title}».",
           "Αυτό δεν επηρεάζει όσα περιγράφονται στην ενότητα «{title}»."],
    "zh": ["相关信息请参阅“{title}”。", "与“{title}”中的规定相同。", "这不影响“{title}”中所述的内容。"],
    "ja": ["詳しくは「{title}」をご覧ください。", "「{title}」と同じ手順で行います。", "「{title}」の内容には影響しません。"],
    "ar": ["للمزيد من المعلومات راجع قسم {title}.", "تطبق القواعد نفسها الواردة في قسم {title}.",
           "لا يؤثر ذلك فيما ورد في قسم {title}."],
    "fa": ["برای آگاهی بیشتر بخش {title} را ببینید.", "همان قواعد بخش {title} در اینجا هم برقرار است.",
           "این موضوع بر مطالب بخش {title} اثری ندارد."],
}


# Reference / changelog statements about one of the document's own topics, with numbers: what most
# pages of a real manual are (specific, each one different), as opposed to boilerplate.
STATEMENTS = {
    "en": ["In release {v}, the behaviour described under {title} changed; older files are converted automatically.",
           "{title}: the limit was raised from {a} to {b} in release {v}.",
           "The table on page {p} summarises {title} for all {n} supported configurations.",
           "A known issue with {title} affects installations older than {y}; a fix is planned for release {v}.",
           "Test results for {title}: {a} of {b} cases passed on the reference system.",
           "Release {v} adds two options to {title} and removes one that was rarely used.",
           "Figure {n} shows {title} as it looked before release {v}.",
           "About {n} percent of the questions received in {y} concerned {title}."],
    "de": ["Seit Fassung {v} gilt für „{title}“ eine geänderte Regelung; ältere Angaben werden übernommen.",
           "„{title}“: Der Grenzwert wurde mit Fassung {v} von {a} auf {b} angehoben.",
           "Die Übersicht auf Seite {p} fasst „{title}“ für alle {n} Varianten zusammen.",
           "Ein bekanntes Problem bei „{title}“ betrifft Ausgaben vor {y}; eine Korrektur ist für Fassung {v} geplant.",
           "Prüfergebnis zu „{title}“: {a} von {b} Fällen bestanden.",
           "Abbildung {n} zeigt „{title}“ im Zustand vor Fassung {v}.",
           "Etwa {n} Prozent der Anfragen im Jahr {y} betrafen „{title}“."],
    "ru": ["В редакции {v} изменён порядок, описанный в разделе «{title}»; прежние данные переносятся автоматически.",
           "«{title}»: предельное значение увеличено с {a} до {b} в редакции {v}.",
           "Таблица на странице {p} обобщает раздел «{title}» для всех {n} вариантов.",
           "Известная проблема раздела «{title}» касается изделий, выпущенных до {y} года; исправление выйдет в редакции {v}.",
           "Результаты проверки по разделу «{title}»: успешно {a} из {b} случаев.",
           "На рисунке {n} показано, как выглядел раздел «{title}» до редакции {v}.",
           "Около {n} процентов обращений в {y} году касались темы «{title}»."],
    "el": ["Στην έκδοση {v} άλλαξε η διαδικασία της ενότητας «{title}»· τα παλαιότερα στοιχεία μεταφέρονται αυτόματα.",
           "«{title}»: το όριο αυξήθηκε από {a} σε {b} στην έκδοση {v}.",
           "Ο πίνακας στη σελίδα {p} συνοψίζει την ενότητα «{title}» για όλα τα {n} προϊόντα.",
           "Ένα γνωστό ζήτημα της ενότητας «{title}» αφορά λογαριασμούς πριν από το {y}· η διόρθωση έρχεται στην έκδοση {v}.",
           "Αποτελέσματα ελέγχου για «{title}»: επιτυχία σε {a} από {b} περιπτώσεις.",
           "Περίπου {n} τοις εκατό των ερωτήσεων το {y} αφορούσαν «{title}»."],
    "zh": ["自{v}版起，“{title}”中描述的行为有所变化，旧数据会自动转换。",
           "“{title}”：上限已在{v}版中从{a}提高到{b}。",
           "第{p}页的表格汇总了{n}种配置下的“{title}”。",
           "“{title}”的一个已知问题影响{y}年以前的产品，计划在{v}版中修复。",
           "“{title}”测试结果：参考设备上{b}项中通过{a}项。",
           "图{n}显示了{v}版之前的“{title}”。",
           "{y}年约百分之{n}的咨询与“{title}”有关。"],
    "ja": ["{v}版から「{title}」の動作が変わりました。以前のデータは自動的に変換されます。",
           "「{title}」の上限は{v}版で{a}から{b}に引き上げられました。",
           "{p}ページの表に、{n}機種分の「{title}」をまとめています。",
           "「{title}」の既知の不具合は{y}年以前の製品に影響し、{v}版で修正予定です。",
           "「{title}」の試験結果：{b}件中{a}件が合格しました。",
           "図{n}は{v}版より前の「{title}」を示しています。",
           "{y}年のお問い合わせの約{n}パーセントが「{title}」に関するものでした。"],
    "ar": ["تغير في الإصدار {v} ما ورد في قسم {title}، وتحول البيانات القديمة تلقائيا.",
           "{title}: رفع الحد من {a} إلى {b} في الإصدار {v}.",
           "يلخص الجدول في الصفحة {p} قسم {title} لجميع الحالات وعددها {n}.",
           "تؤثر مشكلة معروفة في قسم {title} على النسخ السابقة لعام {y}، وسيصدر الإصلاح في الإصدار {v}.",
           "نتائج اختبار {title}: نجحت {a} حالة من أصل {b}.",
           "يبين الشكل {n} قسم {title} كما كان قبل الإصدار {v}.",
           "تعلق نحو {n} بالمئة من الاستفسارات في عام {y} بموضوع {title}."],
    "fa": ["از ویرایش {v} روش بخش {title} تغییر کرده و داده~های قدیمی خودکار تبدیل می~شوند.",
           "{title}: حد مجاز در ویرایش {v} از {a} به {b} رسید.",
           "جدول صفحه {p} بخش {title} را برای هر {n} حالت خلاصه می~کند.",
           "یک مشکل شناخته~شده در بخش {title} نسخه~های پیش از سال {y} را در بر می~گیرد و در ویرایش {v} رفع می~شود.",
           "نتیجه بررسی {title}: {a} مورد از {b} مورد پذیرفته شد.",
           "شکل {n} بخش {title} را پیش از ویرایش {v} نشان می~دهد.",
           "حدود {n} درصد پرسش~های سال {y} درباره {title} بود."],
}


def _letters(lang: str, text: str) -> str:
    """Persian keheh / Farsi yeh and ZWNJ in Persian, Arabic kaf / yeh in Arabic."""
    if lang == "fa":
        return text.replace("ك", "ک").replace("ي", "ی").replace("~", "\u200c")
    if lang == "ar":
        return text.replace("ک", "ك").replace("ی", "ي")
    return text


def paragraph(lang: str, titles: list[str], rng: random.Random) -> str:
    """Three to five statements about the document's topics (each with its own numbers), one generic
    sentence and sometimes a cross-reference, in a shuffled order."""
    sentences = []
    for _ in range(rng.randint(3, 5)):
        a = rng.randint(2, 60)
        sentences.append(rng.choice(STATEMENTS[lang]).format(
            title=rng.choice(titles), v=f"{rng.randint(1, 9)}.{rng.randint(0, 12)}", a=a, b=a + rng.randint(5, 90),
            n=rng.randint(3, 40), p=rng.randint(10, 400), y=rng.randint(2009, 2023)))
    sentences.append(rng.choice(GENERIC[lang]))
    if rng.random() < 0.5:
        sentences.append(rng.choice(MENTIONS[lang]).format(title=rng.choice(titles)))
    rng.shuffle(sentences)
    return _letters(lang, ("" if lang in ("zh", "ja") else " ").join(sentences))
