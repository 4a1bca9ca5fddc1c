"""Hand-written pages and queries for bench/embedding_bench.py.

Each entry is (page text, known-item query, paraphrase query): the known-item query reuses words
of the page, the way a user types what they remember reading; the paraphrase asks for the same
page in other words, which only meaning-based search can answer. English is a heat pump manual;
the Russian, Chinese and Arabic rows are a washing machine, a phone and a printer manual.
"""

from __future__ import annotations

Entry = tuple[str, str, str]

ENGLISH: list[Entry] = [
    ("Safety instructions. Read all safety instructions before installing or using the appliance. Do not insert "
     "fingers or objects into the air outlet while the fan is running. Children must be supervised and must not play "
     "with the appliance. If the power cord is damaged, it must be replaced by the manufacturer or a qualified "
     "electrician to avoid a hazard. Never use flammable sprays near the unit.",
     "power cord damaged replaced by qualified electrician", "what to do if the cable is broken"),
    ("Choosing a location for the indoor unit. Mount the indoor unit on a solid wall at least 2.3 metres above the "
     "floor. Keep 15 cm of free space above the unit and 12 cm on each side so that air can circulate. Avoid places "
     "exposed to direct sunlight, steam or oily fumes from a kitchen. The wall must bear four times the weight of "
     "the unit.", "mount indoor unit 2.3 metres above the floor", "how high on the wall should I hang it"),
    ("Placing the outdoor unit. Place the outdoor unit on a level concrete base or on wall brackets, away from the "
     "bedroom windows of neighbours, because the compressor makes noise. Leave 50 cm behind it and 1 m in front for "
     "airflow. In snowy regions raise the unit at least 30 cm above the expected snow line and protect it from wind "
     "blowing directly into the fan.", "outdoor unit snow line raise 30 cm",
     "installing the external box where winters are harsh"),
    ("Electrical connection. The unit requires a dedicated 230 V circuit protected by a 16 A circuit breaker and a "
     "residual current device. Use copper cable with a cross section of at least 2.5 mm². The appliance must be "
     "earthed. All wiring must follow local regulations and be carried out by a licensed installer.",
     "dedicated 230 V circuit 16 A breaker", "what fuse and wiring does it need"),
    ("Refrigerant piping. Connect the gas and liquid pipes using flare nuts tightened with a torque wrench. Evacuate "
     "the pipes with a vacuum pump for at least 15 minutes before opening the service valves. Pipes longer than 7 "
     "metres need additional refrigerant: 20 grams per extra metre of R32.",
     "vacuum pump 15 minutes service valves", "removing air from the copper lines before the first start"),
    ("Condensate drain. Water condensed during cooling leaves through the drain hose. Route the hose downhill "
     "without loops or kinks so that water cannot stand in it. If the hose must rise, install the optional "
     "condensate pump. A blocked drain causes water to drip from the indoor unit.",
     "drain hose downhill without loops or kinks", "why is water leaking from the unit on the wall"),
    ("The remote control. The remote control has buttons for power, mode, fan speed, swing, timer and temperature. "
     "The display shows the set temperature, the active mode and the battery level. Point the remote at the "
     "receiver window on the right side of the indoor unit; the unit beeps once when it receives a command.",
     "remote control display battery level receiver window", "what the handset buttons do"),
    ("Replacing the batteries. Slide the cover off the back of the remote control and insert two AAA alkaline "
     "batteries, observing the polarity. Do not mix old and new batteries. Remove the batteries if the remote will "
     "not be used for a month or more, because leaking batteries can damage the contacts.",
     "two AAA alkaline batteries polarity", "the handset stopped working, change its power cells"),
    ("Operating modes. Press MODE to cycle through Auto, Cool, Dry, Fan and Heat. In Auto the unit chooses cooling "
     "or heating from the room temperature. Dry mode removes humidity with the fan at low speed and is useful on "
     "damp days. Fan mode only circulates air without changing its temperature.",
     "dry mode removes humidity fan low speed", "how to make the room air less damp"),
    ("Setting the timer. Press TIMER ON to choose when the unit starts and TIMER OFF to choose when it stops, in "
     "steps of 30 minutes up to 24 hours. Both timers can be combined, for example to warm the living room before "
     "you come home from work. The timer symbol on the display shows that a timer is set.",
     "timer on timer off steps of 30 minutes up to 24 hours", "schedule it to switch itself on before I arrive home"),
    ("Sleep mode. Sleep mode raises the set temperature by 1 °C after one hour and by another 1 °C after two hours "
     "when cooling, and lowers it in the same way when heating. The fan runs at its quietest speed and the display "
     "dims. After eight hours the unit returns to normal operation.",
     "sleep mode raises the set temperature by 1 °C after one hour", "quiet night setting that adjusts warmth gradually"),
    ("Wi-Fi setup. Download the Aerotherm Home app and create an account. Hold the WIFI button on the remote for "
     "five seconds until the indoor unit beeps twice, then follow the pairing steps in the app. The unit connects "
     "only to 2.4 GHz networks; 5 GHz networks are not supported.",
     "hold WIFI button five seconds 2.4 GHz", "connect the appliance to my phone over the wireless network"),
    ("Firmware updates. When a new firmware version is available, the app shows a notification. Keep the unit "
     "powered and connected during the update, which takes about ten minutes. Do not switch off the circuit breaker "
     "while the update is running, or the control board may need to be replaced.",
     "firmware update ten minutes control board", "installing new software on the device"),
    ("Cleaning the air filters. Clean the air filters every two weeks. Open the front panel, lift the filters "
     "slightly and pull them downward. Vacuum the dust or wash the filters in lukewarm water with a mild detergent, "
     "then let them dry in the shade before refitting them. Running the unit without filters lets dust build up on "
     "the heat exchanger.", "clean air filters every two weeks lukewarm water", "how often to wash the dust screens"),
    ("Cleaning the outdoor unit. Switch off the power before cleaning the outdoor unit. Remove leaves and debris "
     "from the fins with a soft brush and rinse with a garden hose from the inside out at low pressure. Bent fins "
     "can be straightened carefully with a fin comb.", "fins soft brush garden hose fin comb",
     "looking after the external box in autumn"),
    ("Defrosting. In heating mode at low outdoor temperatures, frost forms on the outdoor coil. The unit then "
     "defrosts automatically for up to ten minutes: the indoor fan stops, the display shows dF and steam may rise "
     "from the outdoor unit. This is normal and heating resumes afterwards.",
     "defrosts automatically display shows dF steam", "why does it stop blowing warm air in freezing weather"),
    ("Error codes. E1: indoor temperature sensor fault. E2: indoor coil sensor fault. E3: the indoor fan motor does "
     "not turn. E4: communication error between the indoor and the outdoor unit; check the connecting cable. For all "
     "of these, switch the unit off at the breaker for one minute; if the code returns, call service.",
     "E4 communication error between indoor and outdoor unit",
     "the display shows a code and the two parts are not talking to each other"),
    ("Protection codes. P1: high pressure protection, often caused by a dirty outdoor coil or blocked airflow. P2: "
     "compressor overheating. P3: supply voltage too high or too low. The unit restarts by itself once conditions "
     "are normal again.", "P1 high pressure protection dirty outdoor coil",
     "safety shutdown because the compressor got too hot"),
    ("The unit does not start. If nothing happens when you press the power button, check that the circuit breaker "
     "is on and that the remote has working batteries. After a power cut, the unit waits three minutes before "
     "restarting the compressor to protect it. Make sure that no timer is set.",
     "waits three minutes before restarting the compressor", "the machine won't turn on at all"),
    ("Poor cooling. Cooling is weak when the filters are dirty, when doors and windows are open, or when strong "
     "sunlight falls into the room. Close the curtains, clean the filters and make sure nothing blocks the air inlet "
     "or outlet. Check that the set temperature is below the room temperature.",
     "cooling weak filters dirty curtains", "the room stays hot even though it is running"),
    ("Noises. A hissing sound is refrigerant flowing and is normal. Clicking comes from plastic parts expanding with "
     "temperature changes. A loud rattling from the outdoor unit may mean a loose panel or that the unit is not "
     "level; switch it off and contact the installer.", "hissing refrigerant clicking plastic parts expanding",
     "strange sounds coming from the machine"),
    ("Odours. The indoor unit can release smells absorbed from the room, such as tobacco, cooking or new furniture. "
     "Clean the filters and run Fan mode for an hour. A burning smell is not normal: switch off immediately, "
     "disconnect the power and call service.", "burning smell switch off disconnect the power",
     "the air it blows smells bad"),
    ("Saving energy. Every degree of extra cooling raises energy use by about 6 percent. Set 26 °C in summer and "
     "20 °C in winter, keep doors closed, and use the timer instead of leaving the unit on all day. The ECO button "
     "limits the maximum power of the compressor.", "every degree raises energy use 6 percent ECO button",
     "how to keep my electricity bill low"),
    ("Child lock. Press and hold the UP and DOWN buttons together for three seconds to lock the remote control. A "
     "padlock appears on the display and all buttons are disabled. Repeat to unlock.",
     "hold UP and DOWN three seconds padlock", "stop kids from changing the settings"),
    ("Seasonal shutdown. Before a long period without use, run Fan mode for half a day to dry the inside of the "
     "unit, switch off the breaker, remove the batteries from the remote control and cover the outdoor unit to keep "
     "out dirt. Before using the unit again, clean the filters and check that nothing blocks the outdoor unit.",
     "run fan mode half a day to dry the inside", "putting the system away for the winter months"),
    ("Technical specifications. Cooling capacity 3.5 kW, heating capacity 4.0 kW, SEER 6.1, SCOP 4.0. Refrigerant "
     "R32, 0.75 kg. Sound pressure indoor 22 to 39 dB(A), outdoor 52 dB(A). Operating range for heating from -15 °C "
     "to 24 °C outdoor temperature.", "cooling capacity 3.5 kW SEER 6.1", "how powerful is this model and how loud"),
    ("Warranty. The manufacturer guarantees the appliance for 24 months from the date of purchase and the "
     "compressor for five years. The warranty does not cover damage from incorrect installation, lack of maintenance "
     "or the use of spare parts that are not original. Keep your receipt as proof of purchase.",
     "guarantees 24 months compressor five years receipt", "how long am I covered if something breaks"),
    ("Disposal. At the end of its life the appliance must not be thrown away with household waste. Take it to a "
     "collection point for electrical equipment. The refrigerant must be recovered by a certified technician because "
     "it contributes to global warming if it is released.",
     "collection point for electrical equipment refrigerant recovered", "getting rid of the old unit responsibly"),
    ("Refrigerant leaks. If you suspect a refrigerant leak, for example because the unit no longer cools and ice "
     "forms on the pipes, switch it off and ventilate the room. R32 is mildly flammable: keep open flames away and do "
     "not operate switches near the leak. Only a certified technician may repair and recharge the system.",
     "ice forms on the pipes R32 mildly flammable", "gas might be escaping from the tubes"),
    ("Smart features. Through the app you can control the unit from anywhere, see its energy consumption per day "
     "and month, and set weekly schedules. The unit also works with voice assistants: link your Aerotherm account in "
     "the assistant's app and say, for example, set the bedroom to 22 degrees.",
     "energy consumption per day and month weekly schedules",
     "talking to a smart speaker to change the temperature"),
]

RUSSIAN: list[Entry] = [
    ("Установка. Перед первым включением снимите транспортировочные болты с задней стенки машины. Выровняйте "
     "машину по уровню с помощью регулируемых ножек, иначе при отжиме она будет сильно вибрировать.",
     "снимите транспортировочные болты", "почему машина трясётся и прыгает во время работы"),
    ("Подключение воды. Присоедините шланг подачи к крану холодной воды. Давление в водопроводе должно быть от "
     "0,1 до 1 МПа. Сливной шланг закрепите на высоте от 60 до 100 см.",
     "давление в водопроводе от 0,1 до 1 МПа", "как подсоединить машину к трубам"),
    ("Выбор программы. Поверните переключатель на нужную программу. Для хлопка используйте 60 °C, для синтетики "
     "40 °C, для шерсти и шёлка — деликатную программу с холодной водой.",
     "деликатная программа для шерсти и шёлка", "как стирать нежные вещи"),
    ("Моющие средства. Засыпайте порошок в отделение II, кондиционер для белья — в отделение со значком цветка. Не "
     "превышайте дозировку, указанную на упаковке: избыток пены ухудшает полоскание.",
     "кондиционер для белья в отделение со значком цветка", "куда класть порошок"),
    ("Блокировка от детей. Нажмите одновременно кнопки «Температура» и «Отжим» и удерживайте их три секунды. На "
     "дисплее загорится значок замка, и кнопки перестанут реагировать.",
     "кнопки Температура и Отжим три секунды", "как запретить ребёнку менять настройки"),
    ("Чистка фильтра насоса. Раз в три месяца откройте люк в нижней части корпуса, подставьте ёмкость и медленно "
     "выкрутите фильтр против часовой стрелки. Удалите ворсинки, монеты и другие предметы.",
     "фильтр насоса раз в три месяца", "машина плохо сливает, что нужно почистить"),
    ("Коды ошибок. E10 — нет подачи воды, проверьте кран и шланг. E20 — вода не сливается. E40 — дверца не "
     "закрыта. При повторении ошибки обратитесь в сервисный центр.",
     "E20 вода не сливается", "что значит сообщение о поломке на экране"),
    ("Отложенный старт. Нажмите кнопку «Старт через» и выберите время от 1 до 24 часов. Так можно стирать ночью, "
     "когда электроэнергия дешевле.", "отложенный старт от 1 до 24 часов", "запустить стирку позже, ночью"),
    ("Уход за уплотнителем. После каждой стирки протирайте резиновую манжету дверцы сухой тканью и оставляйте "
     "дверцу приоткрытой, чтобы не появились плесень и неприятный запах.",
     "протирайте резиновую манжету сухой тканью", "откуда плохой запах из барабана"),
    ("Гарантия. Срок гарантии составляет два года со дня продажи. Гарантия не распространяется на повреждения, "
     "вызванные неправильной установкой или использованием не по назначению.",
     "срок гарантии два года со дня продажи", "сколько времени ремонтируют бесплатно"),
]

CHINESE: list[Entry] = [
    ("开机与关机。长按电源键三秒即可开机。关机时长按电源键，然后在屏幕上点击关机。如果手机无响应，可同时按住电源键和音量减键十秒强制重启。",
     "电源键和音量减键十秒强制重启", "手机卡住不动了怎么办"),
    ("充电。请使用原装充电器和数据线。首次使用前建议充满电。充电时手机可能会发热，这是正常现象。不要在潮湿的环境中充电。",
     "原装充电器和数据线", "给电池补电要注意什么"),
    ("指纹解锁。进入设置，选择安全与隐私，然后选择指纹。按照提示将手指多次放在传感器上，直到录入完成。",
     "安全与隐私 指纹 传感器", "怎样用手指打开屏幕"),
    ("无线网络。下拉通知栏，长按无线局域网图标，选择网络并输入密码。连接成功后，状态栏会显示信号图标。",
     "长按无线局域网图标 输入密码", "怎么连上家里的网"),
    ("蓝牙配对。打开蓝牙，让耳机进入配对模式，然后在可用设备列表中点击耳机的名称。",
     "耳机进入配对模式 可用设备列表", "如何连接无线耳塞听歌"),
    ("拍照。打开相机应用，点击快门按钮拍照。夜间模式可以在光线较暗的环境中拍出更清晰的照片。双指捏合可以放大或缩小画面。",
     "夜间模式 光线较暗", "天黑时如何拍出好看的照片"),
    ("存储空间。进入设置中的存储，可以查看已用空间。清理缓存和删除不需要的应用可以释放空间。",
     "清理缓存 释放空间", "手机内存满了"),
    ("系统更新。进入设置，点击系统更新，下载并安装最新版本。更新前请确保电量高于百分之三十并连接无线网络。",
     "电量高于百分之三十", "升级软件之前要准备什么"),
    ("防水。本机具有防溅水功能，但不防水。请勿将手机浸入水中或在浴室中使用。进水造成的损坏不在保修范围内。",
     "防溅水功能 但不防水", "手机掉进泳池会怎样"),
    ("保修。手机主机保修一年，电池和充电器保修六个月。请保留购买发票。",
     "主机保修一年 电池和充电器保修六个月", "坏了可以免费修多久"),
]

ARABIC: list[Entry] = [
    ("تركيب الخرطوشة. افتح الغطاء الأمامي وانتظر حتى تتوقف العربة في المنتصف. أزل الشريط البرتقالي من الخرطوشة "
     "الجديدة ثم أدخلها حتى تسمع صوت نقرة.", "أزل الشريط البرتقالي من الخرطوشة", "كيف أضع الحبر الجديد في الطابعة"),
    ("تحميل الورق. اسحب درج الورق إلى الخارج واضبط أدلة العرض حسب حجم الورق. لا تضع أكثر من مئة ورقة في الدرج.",
     "أدلة العرض حسب حجم الورق", "أين أضع الأوراق"),
    ("الاتصال بالشبكة اللاسلكية. اضغط على زر الواي فاي لمدة ثلاث ثوان حتى يومض المصباح الأزرق، ثم اضغط على زر WPS "
     "في جهاز التوجيه.", "زر الواي فاي ثلاث ثوان المصباح الأزرق", "ربط الطابعة بالإنترنت دون أسلاك"),
    ("انحشار الورق. أطفئ الطابعة وافتح الغطاء الخلفي، ثم اسحب الورقة العالقة ببطء بكلتا يديك حتى لا تتمزق.",
     "اسحب الورقة العالقة ببطء", "الورقة علقت داخل الجهاز"),
    ("تنظيف رأس الطباعة. إذا ظهرت خطوط بيضاء في المطبوعات، شغّل برنامج تنظيف رأس الطباعة من قائمة الصيانة. قد يستغرق "
     "ذلك دقيقتين.", "خطوط بيضاء تنظيف رأس الطباعة", "الصفحات تخرج باهتة وغير واضحة"),
    ("المسح الضوئي. ضع المستند على الزجاج ووجهه إلى الأسفل، ثم اختر المسح من تطبيق الهاتف واحفظ الملف بصيغة PDF.",
     "ضع المستند على الزجاج ووجهه إلى الأسفل", "تحويل ورقة إلى ملف على الحاسوب"),
    ("توفير الطاقة. تدخل الطابعة في وضع السكون بعد خمس دقائق من عدم الاستخدام، وتستيقظ تلقائياً عند إرسال مهمة "
     "طباعة.", "وضع السكون بعد خمس دقائق", "الجهاز ينطفئ وحده عندما لا أستخدمه"),
    ("الطباعة على الوجهين. اختر الطباعة المزدوجة في إعدادات برنامج التشغيل لتوفير الورق.",
     "الطباعة المزدوجة في إعدادات برنامج التشغيل", "كيف أطبع على جهتي الورقة"),
    ("رسائل الخطأ. الرمز E3 يعني أن الخرطوشة غير متوافقة، والرمز E5 يعني أن الحبر قد نفد.",
     "E5 يعني أن الحبر قد نفد", "ماذا تعني الأرقام على الشاشة"),
    ("الضمان. تغطي الشركة الطابعة لمدة سنة واحدة من تاريخ الشراء، ولا يشمل الضمان الخراطيش المستهلكة.",
     "لمدة سنة واحدة من تاريخ الشراء", "هل يصلحون الجهاز مجاناً إذا تعطل"),
]

CORPORA: dict[str, list[Entry]] = {"en": ENGLISH, "ru": RUSSIAN, "zh": CHINESE, "ar": ARABIC}
