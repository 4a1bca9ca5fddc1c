"""English and German documents of the relevance corpus (format: bench/relevance_corpus.py).

Queries were written with the text, before any ranking was run. k = known-item (tags: joined =
the target word is joined to others by punctuation or case on the page and typed as one part;
fold = typed with another case or ß as ss), p = paraphrase. Headings are queried as typed
(lower case, without the number) unless an h: line says otherwise.
"""

from __future__ import annotations

from bench.relevance_corpus import Doc

PLOTKIT = """
# 1 | Getting started
Plotkit is a small library for drawing charts from Python scripts and from the command line. This manual
describes release 3.4. It assumes that you can run a Python interpreter and install packages with pip; no
knowledge of the rendering internals is needed.
k: drawing charts from python scripts and the command line

# 1.1 | Installing Plotkit
Install the library with `pip install plotkit`. Prebuilt wheels are published for Linux, macOS and Windows
on x86-64, and for `ARMv6` and `ARMv7` boards such as the first Raspberry Pi Zero. On any other platform pip
compiles the rendering core from source, which needs a C compiler and the Cairo development headers.
k[joined]: ARM wheels
k: raspberry pi zero prebuilt wheels
k: compiler cairo development headers
p: can I use it on a tiny single-board computer

# 1.2 | A first chart
The shortest useful script imports the module, creates a figure, adds one line series and saves the result.
Running it writes a PNG image next to the script; open it in any image viewer to check the output.
`fig = plotkit.Figure(width=640, height=480)`
k: imports the module creates a figure adds one line series
---
# 2 | Colours and styles
Every series gets a colour from the active colour cycle unless it sets one itself. Colours can be named
(`"navy"`), written as hex strings (`"#1f77b4"`) or given as RGB tuples with components between 0 and 1.
k: hex strings rgb tuples components between 0 and 1

# 2.1 | Colour cycles
The default cycle is `orange,teal,red,navy,olive`; after the fifth series it starts again from the first
colour. Set a different cycle for one figure with `fig.cycle = "grey,black"` or for all figures in the
configuration file (see section 6.1). A cycle with a single colour draws every series alike, which suits
small multiples.
k[joined]: teal
k: after the fifth series it starts again
p: why do my lines repeat the same colours once I have many of them

# 2.2 | Line styles and markers
Line width is given in points with `series.setLineWidth(1.5)`. Dashes are described by `setDashPattern([6, 3])`,
a list of alternating on and off lengths. Markers are drawn at each data point; choose their shape with
`marker="o"`, `"s"` or `"^"` and their size with `markerSize`.
k[joined]: dash pattern
k: alternating on and off lengths
---
# 3 | Axes and coordinates
Each figure has one or more axes. An axis maps data values to positions on the page and draws its ticks,
labels and grid lines.

# 3.1 | Moving the origin
By default the origin of the data coordinates sits at the lower left corner of the plotting area. Pass
`origin=(xOrig,yOrig)` to place it anywhere else, in data units; both values default to 0.0. Moving the
origin does not move the axis lines unless `spines="origin"` is also set.
k[joined]: yOrig
k: origin lower left corner of the plotting area
p: how do I shift where zero is on the chart

# 3.2 | Logarithmic scales
Call `ax.set_scale("log")` for a logarithmic axis. Values less than or equal to zero cannot be shown on a
log scale and are dropped with a warning; use `"symlog"` when the data crosses zero. Tick labels on log axes
are written as powers of ten.
k: values less than or equal to zero dropped with a warning
k: symlog
k: tick labels powers of ten

# 3.3 | Tick labels and legends
Tick label rotation is set with `ax.ticks(rotation=45)`. The legend collects the label of every series; place
it with `legendAnchor="upper right"`, or outside the axes with `legendAnchor="outside"`. Long labels are
shortened with an ellipsis after 40 characters.
k[joined]: legend anchor outside
k: shortened with an ellipsis after 40 characters
---
# 4 | Exporting figures

# 4.1 | File formats
`fig.save()` picks the format from the file name: PNG, SVG, PDF and EPS are supported. Raster output uses
150 dots per inch unless `dpi` is given. Vector formats keep text as text, so labels stay searchable in the
resulting PDF. PDF output can use either of the `RGB/CMYK` colour models; EPS is always RGB.
k[joined]: cmyk
k: raster output 150 dots per inch

# 4.2 | Sharing charts online
`fig.publish()` uploads the chart to the gallery at `www.example.org` and returns a link that anyone can
open. Uploaded charts are public: delete them from the gallery page when they are no longer needed.
Publishing requires an account token, read from the environment variable `PLOTKIT_TOKEN`.
k[joined]: example
k: uploaded charts are public delete them from the gallery
k: account token environment variable
p: can other people see what I upload

# 4.3 | Batch export from the command line
The `plotkit-render` command renders every script in a folder:
`plotkit-render charts/ --format svg --no-antialias`. Turning antialiasing off gives crisp lines for
pixel-exact comparisons in tests, at the cost of jagged diagonal edges.
k[joined]: antialias
k: crisp lines pixel-exact comparisons
---
# 5 | Fonts and text
Text in labels and titles uses the system font configured for the figure. Plotkit looks up fonts through
fontconfig on Linux and through the native font services elsewhere.

# 5.1 | Font cache
The first run scans the installed fonts and stores the result in `font_cache_dir`, by default a folder under
the user cache directory. Delete the folder to force a rescan after installing new fonts; the scan takes a
few seconds on a typical desktop.
k[joined]: cache dir
k: delete the folder to force a rescan after installing new fonts
p: newly added typefaces do not show up

# 5.2 | Mathematical notation
Labels between dollar signs are rendered as mathematical notation, for instance `"$\\alpha^2$"`. A small
subset of TeX is understood: Greek letters, superscripts, subscripts, fractions and square roots. Complex
formulas should be set by a full TeX installation and inserted as images.
k: labels between dollar signs rendered as mathematical notation
k: greek letters superscripts subscripts fractions square roots
---
# 6 | Configuration and performance

# 6.1 | The configuration file
Defaults for every figure are read from `~/.config/plotkit/plotkitrc` at start-up. Each line holds one
setting as `key = value`; lines starting with a semicolon are comments. Settings given in a script always
win over the file.
k[joined]: plotkitrc
k: lines starting with a semicolon are comments
k: settings given in a script always win over the file

# 6.2 | Large data sets
Series with more than 100,000 points are thinned before drawing: consecutive points closer than half a pixel
are merged, which keeps the shape of the curve while cutting rendering time. Set `decimate=False` to draw
every point, for instance when exporting vector files for later editing.
k: consecutive points closer than half a pixel are merged
p: drawing is very slow when I plot millions of values

# 6.3 | Running without a display
On servers without a graphical session, select the headless backend with `PLOTKIT_BACKEND=agg` before
importing the module. The headless backend supports every file format but cannot open interactive windows.
k: headless backend interactive windows
k[joined]: agg
"""

TEXLIVE = """
# 1 | Before you start
This guide installs a minimal TeX Live on single-board computers with little memory and slow storage.
Everything here was tested on a board with 1 GB of memory and a 32 GB memory card; a full installation
needs about 8 GB, the minimal scheme less than 400 MB.
k: full installation needs about 8 GB minimal scheme less than 400 MB
p: how much room on the card do I need

# 1.1 | Choosing a scheme
The installer offers schemes from `scheme-minimal` to `scheme-full`. On a small board start with
`scheme-basic` and add collections later with `tlmgr install`; that keeps the first download short and
avoids fonts you will never use.
k: start with scheme-basic add collections later

# 1.2 | Getting the installer
Download `install-tl-unx.tar.gz` from a CTAN mirror, unpack it and run `perl install-tl` from the unpacked
folder. Choose a mirror close to you: the installer fetches several hundred packages, and a distant mirror
can triple the installation time.
k: a distant mirror can triple the installation time
k: unpack it and run perl install-tl
---
# 2 | Platform notes

# 2.1 | Binaries for ARM boards
TeX Live ships binaries for `aarch64-linux` and `armhf-linux`. Older boards with an ARMv6 processor, such as
the first Raspberry Pi models, cannot run the `armhf` binaries, which are built for ARMv7; on those boards
TeX must be compiled from the sources, which takes most of a day.
k: armv6 processor
k: compiled from the sources takes most of a day
k[joined]: aarch64
p: my old pi cannot run the precompiled programs

# 2.2 | Memory and swap
Building format files with `fmtutil` can need more memory than a small board has. Add a swap file of at
least 1 GB before running the installer, and remove it afterwards if the memory card is slow or wears out
easily.
k: swap file of at least 1 GB before running the installer
k: fmtutil building format files

# 2.3 | Storage on memory cards
Memory cards are slow at writing many small files. Unpacking the TeX tree on such a card can take an hour;
installing to a USB disk and symlinking the binaries cuts that to minutes.
k: installing to a usb disk and symlinking the binaries
---
# 3 | Managing packages

# 3.1 | Updating with tlmgr
Run `tlmgr update --self --all` once a month. The first update after installation is usually the largest.
If `tlmgr` reports that the repository is older than the installation, switch to another mirror with
`tlmgr option repository`.
k: tlmgr update self all once a month
k: repository is older than the installation

# 3.2 | The expl3 programming layer
Current LaTeX releases load the programming layer from the `l3kernel` package automatically. Documents that
fail with an undefined control sequence from `expl3` usually run against an outdated `l3kernel`; update it
together with `latex-bin`, never one without the other.
k[joined]: kernel
k: undefined control sequence from expl3
p: old documents break with an error about an unknown command

# 3.3 | Installing fonts for LuaLaTeX
LuaLaTeX finds system fonts by name once its font database is built. After installing new fonts, run
`luaotfload-tool --update` so that the database picks them up; the first run after installation indexes every
font and can take several minutes on a slow board.
k[joined]: luaotfload
k: indexes every font several minutes on a slow board
---
# 4 | Troubleshooting

# 4.1 | The installer stops while downloading
A download that stops half way is nearly always a network problem or an overloaded mirror. Restart the
installer: it resumes with the package it was fetching. Pass `-repository` with the address of a specific
mirror, for instance `https://mirror.ctan.org/systems/texlive/tlnet`, to avoid the mirror redirector.
k[joined]: tlnet
k: resumes with the package it was fetching

# 4.2 | Fonts are missing in the output
When a PDF shows boxes instead of characters, the font was not embedded. Run `pdffonts` on the file: every
font should say "yes" in the emb column. Fonts installed after the format files were built need `mktexlsr`
before TeX can find them.
k: boxes instead of characters font was not embedded
k: mktexlsr format files
p: some letters look like empty rectangles in my document

# 4.3 | Getting help
Questions about TeX Live go to the `tex-live@tug.org` mailing list; include the output of `tlmgr --version`
and the platform name. Bugs in a single package are best reported to its author, listed on the package page
at CTAN.
k[joined]: tug
k: include the output of tlmgr version and the platform name
"""

FASTENERS = """
# 1 | Thread basics
A screw thread is described by its major diameter, its pitch and its tolerance class. Metric threads are
written as M followed by the nominal diameter in millimetres; a fine pitch is added after a multiplication
sign, as in M8×1.0. Without a pitch, the coarse series is meant.
k: metric threads written as M followed by the nominal diameter
p: what does the number after the x in a bolt size mean

# 1.1 | Coarse and fine pitch
Coarse threads assemble quickly and tolerate dirt and damage. Fine threads resist loosening under vibration
and allow finer adjustment, but they strip more easily in soft materials such as aluminium. Use fine threads
in thin walls and coarse threads everywhere else.
k: fine threads resist loosening under vibration
k: strip more easily in soft materials such as aluminium

# 1.2 | Thread dimensions
The table export of this handbook lists each size with the columns
`size,pitch,major_diam,pitch_diam,minor_diam,tap_drill`. All values are in millimetres. For M8×1.25 the
major diameter is 8.000, the pitch diameter 7.188 and the minor diameter 6.647; the tap drill is 6.8.
k[joined]: diam
k[joined]: M8
k: pitch diameter 7.188 minor diameter 6.647
---
# 2 | Tightening torque

# 2.1 | Torque tables
Tightening torques depend on the property class of the bolt and on friction. For a lubricated M10 bolt of
class 8.8 use 44 N·m; dry threads need about 20 percent more. Never reuse torque-to-yield bolts: they
stretch permanently when tightened.
k: lubricated m10 bolt class 8.8 44
k: torque-to-yield bolts stretch permanently
p: can I put the same stretch bolts back in after removing them

# 2.2 | Using a torque wrench
Set the wrench to the required value and pull smoothly at the handle until it clicks. Do not continue after
the click. Store click-type wrenches at their lowest setting so that the spring does not lose its
calibration, and have them checked once a year.
k: store click-type wrenches at their lowest setting
k: pull smoothly at the handle until it clicks

# 2.3 | Thread locking compounds
Medium strength compound (blue) holds against vibration and can be undone with hand tools. High strength
compound (red) needs heat of about 250 °C before the joint can be separated. Clean and degrease both threads
before applying either.
k: high strength compound red needs heat of about 250
p: the glued screw will not come loose, what now
---
# 3 | Materials and corrosion

# 3.1 | Stainless steel fasteners
A2 stainless steel resists weather; A4 contains molybdenum and also resists salt water and chlorinated
pools. Stainless bolts tighten with more friction and can seize: use anti-seize paste on threads that must
be undone again.
k: a4 contains molybdenum salt water chlorinated pools
k: anti-seize paste

# 3.2 | Galvanic corrosion
Where two metals touch in the presence of moisture, the less noble one corrodes. Aluminium parts fastened
with stainless screws corrode around the screw head; insulating washers or a coat of primer prevent this.
k: aluminium parts fastened with stainless screws corrode around the screw head
p: why is the metal around my bolts turning to white powder

# 3.3 | Washers and nuts
Flat washers spread the load on soft surfaces. Spring washers do little against loosening and are no longer
recommended by most standards; use a nylon-insert lock nut, or a prevailing-torque nut where temperatures
exceed 120 °C.
k: nylon-insert lock nut prevailing-torque
k: spring washers no longer recommended
"""

HANDBOOK = """
# 1 | Working hours
The standard working week is 37.5 hours, Monday to Friday. Core hours are 10:00 to 15:00; outside them you
may start and finish when it suits you, as long as your team knows when to reach you. Overtime must be
agreed with your manager in advance and is paid at time and a half or taken as time off.
k: core hours 10:00 to 15:00
k: overtime paid at time and a half
p: do I get extra pay if I stay late

# 1.1 | Working from home
Employees may work from home up to three days a week once their probation has ended. Agree the days with
your team lead and keep them stable from week to week. The company lends a laptop and a headset; other
equipment is your own responsibility.
k: work from home up to three days a week
p: can I do my job from my house, and how often
p: who pays for the computer when I am not in the office

# 1.2 | Public holidays
Offices close on public holidays of the country where you are employed. If a holiday falls on a weekend,
it is not moved to a weekday. Staff who have to work on a public holiday receive a day off in lieu within
the following month.
k: day off in lieu within the following month
p: what happens if I have to come in on christmas
---
# 2 | Leave

# 2.1 | Annual leave
Full-time staff have 25 days of annual leave plus public holidays; part-time staff have the same entitlement
in proportion to their hours. Up to five unused days can be carried over to the next year and must be taken
by the end of March.
k: up to five unused days carried over to the next year
p: can I keep vacation I did not use

# 2.2 | Sick leave
If you are ill, tell your manager before 10:00 on the first day. For absences of more than seven calendar
days a doctor's note is required. Sick pay is full salary for the first eight weeks in any twelve months.
k: doctor's note more than seven calendar days
p: I have the flu, who do I tell and when

# 2.3 | Parental leave
Mothers and fathers are entitled to parental leave after the birth or adoption of a child. The company tops
up the statutory pay to full salary for the first sixteen weeks. Give at least eight weeks' notice of the
start date.
k: tops up the statutory pay to full salary for the first sixteen weeks
p: how much am I paid when my baby is born
---
# 3 | Expenses and travel

# 3.1 | Booking travel
Book trains and flights through the travel portal at least fourteen days before the trip. Economy class is
the rule for flights under six hours; for longer flights premium economy may be booked with director
approval. Rail travel is preferred for journeys under four hours.
k: economy class flights under six hours premium economy
p: am I allowed a better seat on a long-haul trip

# 3.2 | Claiming expenses
Submit expense claims within 30 days, with an itemised receipt for every item above 10 euros. Meals while
travelling are reimbursed up to 45 euros a day. Alcohol, fines and personal entertainment are never
reimbursed.
k: itemised receipt for every item above 10 euros
p: how much can I spend on food during a business trip

# 3.3 | Company cars
Company cars are available to sales staff who drive more than 20,000 km a year for work. Private use is
taxed as a benefit in kind. Fuel for private journeys is paid by the driver; report every accident to the
fleet office within 24 hours.
k: report every accident to the fleet office within 24 hours
p: who pays for petrol when I use the vehicle at the weekend
---
# 4 | Security and conduct

# 4.1 | Passwords and devices
Passwords must have at least 14 characters and must not be reused across services. Turn on two-factor
authentication for every company account. Lost or stolen laptops and phones must be reported to the
service desk immediately, so that they can be wiped remotely.
k: lost or stolen laptops wiped remotely
k[joined]: two factor authentication
p: my work phone was stolen on the bus

# 4.2 | Gifts and hospitality
Gifts from suppliers worth more than 50 euros must be declared to compliance and may have to be returned.
Invitations to events are accepted only with the approval of your director. Never accept cash or vouchers,
whatever their value.
k: gifts from suppliers worth more than 50 euros declared to compliance
p: a vendor wants to give me concert tickets, is that okay

# 4.3 | Reporting concerns
Concerns about fraud, harassment or safety can be raised with your manager, with HR or anonymously through
the ethics hotline. The company does not tolerate retaliation against anyone who raises a concern in good
faith.
k: anonymously through the ethics hotline
p: where can I complain confidentially about a colleague's behaviour
"""

KAFFEE = """
# 1 | Sicherheitshinweise
Das Gerät ist nur für den Gebrauch im Haushalt bestimmt. Stellen Sie es auf eine ebene, wasserfeste Fläche
und halten Sie Kinder unter acht Jahren fern. Während des Betriebs werden Auslauf und Dampfdüse heiß:
Fassen Sie diese Teile nicht an.
k: auslauf und dampfdüse heiß
k[fold]: heiss fassen sie diese teile nicht an

# 1.1 | Aufstellen des Geräts
Lassen Sie mindestens 10 cm Abstand zur Wand, damit die Luft zirkulieren kann. Schließen Sie das Gerät nur
an eine geerdete Steckdose an. Das Netzkabel darf nicht über scharfe Kanten oder heiße Oberflächen geführt
werden.
k: mindestens 10 cm abstand zur wand
k[fold]: schliessen geerdete steckdose

# 1.2 | Bedienelemente
Auf der Vorderseite befinden sich der Ein-/Ausschalter, das Display und die Tasten für Espresso, Kaffee und
Milchschaum. Mit dem Drehregler stellen Sie die Kaffeestärke in fünf Stufen ein.
k[joined]: ausschalter
k: drehregler kaffeestärke fünf stufen
---
# 2 | Kaffee zubereiten

# 2.1 | Bohnen und Mahlgrad
Füllen Sie höchstens 250 g Bohnen in den Behälter. Der Mahlgrad lässt sich nur bei laufendem Mahlwerk
verstellen; drehen Sie den Regler im Stillstand, kann das Mahlwerk beschädigt werden. Ölige, karamellisierte
Bohnen verkleben das Mahlwerk.
k: mahlgrad nur bei laufendem mahlwerk verstellen
k: ölige karamellisierte bohnen
p: warum darf ich die feinheit nicht einstellen, wenn die mühle steht

# 2.2 | Tassengröße einstellen
Halten Sie die Espresso-Taste drei Sekunden gedrückt, bis das Display „Menge“ zeigt. Lassen Sie die Taste
los, sobald die gewünschte Menge in der Tasse ist. Das Gerät speichert diese Größe für alle weiteren Bezüge.
k[fold]: gerät speichert diese grösse
k: espresso-taste drei sekunden gedrückt

# 2.3 | Milchschaum
Tauchen Sie die Dampfdüse tief in die kalte Milch und öffnen Sie den Dampfregler. Senken Sie das Kännchen
langsam ab, sobald die Milch ihr Volumen verdoppelt hat. Reinigen Sie die Düse sofort nach jedem Gebrauch
mit einem feuchten Tuch.
k: kännchen langsam
k: düse sofort nach jedem gebrauch mit einem feuchten tuch
p: wie bekomme ich die milch cremig und aufgeschäumt
---
# 3 | Pflege und Reinigung

# 3.1 | Tägliche Reinigung
Leeren Sie die Abtropfschale und den Tresterbehälter täglich. Spülen Sie den Wassertank mit klarem Wasser
aus; füllen Sie ihn nicht mit Mineralwasser oder Milch. Die Brühgruppe lässt sich herausnehmen und unter
fließendem Wasser abspülen.
k: abtropfschale tresterbehälter täglich
k[fold]: fliessendem wasser abspülen

# 3.2 | Entkalken
Das Gerät meldet, wenn es entkalkt werden muss. Verwenden Sie ausschließlich den flüssigen Entkalker des
Herstellers; Essig greift die Dichtungen an. Der Vorgang dauert etwa 25 Minuten und darf nicht unterbrochen
werden.
k: essig greift die dichtungen an
k: vorgang dauert etwa 25 minuten
p: kann ich haushaltsessig gegen kalk nehmen

# 3.3 | Wasserfilter
Ein Wasserfilter verringert Kalkablagerungen. Setzen Sie den Filter mit dem Griff nach oben in den Tank ein
und stellen Sie im Menü „Filter: Ja“ ein. Tauschen Sie ihn nach 50 Litern oder spätestens nach zwei Monaten.
k: tauschen sie ihn nach 50 litern oder spätestens nach zwei monaten
k: griff nach oben in den tank
---
# 4 | Störungen beheben

# 4.1 | Kaffee läuft nur tröpfchenweise
Der Mahlgrad ist zu fein oder die Brühgruppe verschmutzt. Stellen Sie einen gröberen Mahlgrad ein und
reinigen Sie die Brühgruppe. Hilft das nicht, ist das Gerät möglicherweise verkalkt.
k: gröberen mahlgrad brühgruppe reinigen

# 4.2 | Fehlermeldungen
E01 bedeutet, dass die Brühgruppe fehlt oder nicht eingerastet ist. E05 meldet einen leeren Wassertank oder
einen Lufteinschluss im System; füllen Sie Wasser nach und lassen Sie heißes Wasser durchlaufen. Bleibt eine
Meldung bestehen, wenden Sie sich an den Kundendienst.
k: e05 lufteinschluss im system
k[fold]: HEISSES WASSER DURCHLAUFEN
p: was bedeutet der code auf dem bildschirm, wenn der behälter leer ist
"""

PARKEN = """
# 1 | Allgemeines

# 1.1 | Geltungsbereich
Diese Verordnung gilt für alle öffentlichen Straßen, Wege und Plätze im Gebiet der Stadt Lindenau, soweit
sie dem öffentlichen Verkehr gewidmet sind. Privatparkplätze von Supermärkten und Wohnanlagen fallen nicht
darunter.
k[fold]: öffentlichen strassen wege und plätze
k: privatparkplätze von supermärkten und wohnanlagen

# 1.2 | Begriffe
Anwohner im Sinne dieser Verordnung sind Personen, die in der Parkzone mit Hauptwohnsitz gemeldet sind. Ein
Parkausweis ist personengebunden und gilt nur für das darauf eingetragene Kennzeichen.
k: parkausweis personengebunden eingetragene kennzeichen
p: darf mein nachbar meine anwohnerplakette benutzen
---
# 2 | Parken in Parkzonen

# 2.1 | Gebührenpflicht
Montag bis Samstag von 8 bis 20 Uhr ist das Parken in den Zonen A und B gebührenpflichtig. Die Gebühr
beträgt 1,50 Euro je angefangene halbe Stunde; die Höchstparkdauer beträgt drei Stunden. An Sonn- und
Feiertagen ist das Parken gebührenfrei.
k: 1,50 euro je angefangene halbe stunde
k: höchstparkdauer drei stunden
p: muss ich am sonntag für den stellplatz zahlen

# 2.2 | Anwohnerparken
Anwohner erhalten auf Antrag einen Parkausweis für ihre Zone. Er kostet 120 Euro im Jahr und wird für
höchstens zwei Fahrzeuge je Haushalt ausgestellt. Den Antrag stellen Sie beim Bürgerbüro, Marktstraße 4.
k[fold]: bürgerbüro marktstrasse 4
k: 120 euro im jahr höchstens zwei fahrzeuge je haushalt

# 2.3 | Parken für Menschen mit Behinderung
Inhaber eines blauen Parkausweises dürfen auf allen gebührenpflichtigen Plätzen bis zu 24 Stunden
gebührenfrei parken. Die gekennzeichneten Behindertenparkplätze sind ausschließlich ihnen vorbehalten.
k: blauen parkausweises bis zu 24 stunden gebührenfrei
---
# 3 | Verbote und Ahndung

# 3.1 | Geh- und Radwege
Das Parken auf Gehwegen ist verboten, auch mit zwei Rädern. Fußgänger, Kinderwagen und Rollstühle müssen
eine Restbreite von mindestens 1,80 Metern vorfinden. Radwege und Radfahrstreifen dürfen weder zum Parken
noch zum Halten benutzt werden.
k[fold]: fussgänger kinderwagen rollstühle
k: restbreite von mindestens 1,80 metern
p: darf ich mit dem auto halb auf dem bürgersteig stehen

# 3.2 | Bußgelder
Wer ohne gültigen Parkschein parkt, zahlt eine Buße von 20 Euro; nach mehr als drei Stunden erhöht sich die
Buße auf 40 Euro. Das Parken auf einem Behindertenparkplatz ohne Berechtigung kostet 55 Euro. Die Buße ist
innerhalb von zwei Wochen zu überweisen.
k[fold]: busse innerhalb von zwei wochen
k[fold]: BUSSE 40 EURO

# 3.3 | Abschleppen
Fahrzeuge, die Feuerwehrzufahrten, Ausfahrten oder Baustellen blockieren, werden auf Kosten des Halters
abgeschleppt. Die Herausgabe erfolgt gegen Zahlung der Abschleppkosten beim Verwahrplatz in der
Hafenstraße 12, werktags von 7 bis 19 Uhr.
k[fold]: verwahrplatz hafenstrasse 12
p: mein wagen wurde weggebracht, wo bekomme ich ihn zurück
"""


def documents() -> list[Doc]:
    return [
        Doc("en-plotkit", "en", "Plotkit 3 Reference Manual", "Release 3.4, typeset with LaTeX", PLOTKIT,
            contents=True, ligatures=True),
        Doc("en-texlive", "en", "Installing TeX Live on Small Boards", "A community guide", TEXLIVE,
            numbered_outline=False, ligatures=True),
        Doc("en-fasteners", "en", "Fastener Handbook for Workshop Use", "Metric threads, torque and materials",
            FASTENERS),
        Doc("en-handbook", "en", "Northwind Staff Handbook", "Policies for all employees, edition 2024", HANDBOOK,
            numbered_outline=False),
        Doc("de-kaffee", "de", "Kaffeevollautomat CremaPro 600", "Bedienungsanleitung", KAFFEE, contents=True,
            ligatures=True),
        Doc("de-parken", "de", "Parkraumverordnung der Stadt Lindenau", "Fassung vom 1. März 2024", PARKEN),
    ]
