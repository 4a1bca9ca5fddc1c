"""Section search on headings: does a heading's own section come back first?

Generates outlined manuals with PyMuPDF that look like real ones: a title page, a contents page,
chapters / sections / subsections three levels deep with numbered headings in bold, larger type,
several sections per page, running headers and page numbers, prose that reuses the same words
("network", "configuration", ...) in every chapter and cross-references other sections by title.
The documents differ in how their outline points at the headings:
  explicit   GoTo destinations at the heading's y (what most generators write)
  zero       GoTo destinations with y = 0 (pdfTeX-style "top of the page")
  named      named destinations (pdfTeX/texinfo), a third of them with no top coordinate,
             headings set word by word without space characters (MuPDF synthesises the spaces),
             and code words in another font with tight spacing (spans MuPDF joins with no space)
  none       no outline at all: sections come from the heuristic heading detector
plus a Russian (Cyrillic) and a Chinese (CJK) manual.

Queries, through the real tool call (pdf_search, granularity "section", mode "keyword"):
  heading     the heading as a user types it: lower case, without its number
  numbered    the same with its number ("3.2 configuring the network interface")
  partial     the heading without its first word ("the network interface"), for headings of
              three words or more (reported, not part of the target)
  paraphrase  a short paraphrase written next to each heading in this file ("set up network
              interface"); written once with the headings, never adjusted to the results
A query hits when a returned section has the heading's page and title (numbering ignored). The
target: hit@1 >= 0.9 over the heading and numbered queries.

Prints hit@1, hit@10 and MRR@10 per document and per query kind. Columns: "entries" outline
entries, "sections" sections indexed (the front matter is one more), "found" outline entries
present among them (title and start page), "split" headings whose section's text begins with the
heading itself, i.e. the page's text was divided at the right line (the builder's section stage
run directly). --timing adds the section stage's seconds on ~1,000-page manuals (the long
network manual repeated, ~1.4 outline entries a page), with each kind of outline and without one.
--title-boost reruns everything with each section title boost; --any-words is a what-if that
parses section queries with OR (documents with all words still first) instead of AND.

Usage: python bench/heading_bench.py [--timing | --timing-only] [--pages N] [--title-boost B ...]
                                     [--any-words] [--verbose] [--check]
"""

from __future__ import annotations

import argparse
import os
import random
import re
import sys
import tempfile
import time
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

os.environ["PDFDESK_HOME"] = tempfile.mkdtemp(prefix="pdfdesk-heading-bench-")

import pymupdf

from pdfdesk.core.config import Config, set_config
from pdfdesk.core.documents import close_all, open_pdf
from pdfdesk.index import store
from pdfdesk.index.builder import Target, build_index, build_vectors
from pdfdesk.index.store import DocumentIndex
from pdfdesk.tools import call_tool

# ------------------------------------------------------------------------------------------------
# The manuals: "number | heading | paraphrase [| short title]". `code` words are set in a monospace
# font; a short title is what a manual with short outline titles (LaTeX's \section[short]{long}) puts
# in its outline.

NETWORK = """
1 | Introduction | start here
1.1 | About this guide | what this manual covers
1.2 | Typographic conventions | formatting used in the text
1.3 | Getting help and support | where to ask for assistance
2 | Installation | how to get it onto the machine
2.1 | System requirements | minimum hardware needed
2.2 | Installing the software packages | install the program
2.2.1 | Installing from the package repository | install using the distribution repo
2.2.2 | Building from source code | compile it myself
2.3 | Upgrading from an earlier release | update an old version
2.4 | Removing the software | uninstall
3 | Network configuration | networking setup
3.1 | Network overview | how networking works
3.2 | Configuring the network interface | set up network interface
3.2.1 | Assigning a static IP address | fixed ip
3.2.2 | Obtaining an address with DHCP | automatic address assignment
3.2.3 | Configuring `netctl` profiles | netctl profile setup
3.3 | Setting up wireless connections | connect to wifi
3.4 | Name resolution and DNS servers | hostname lookup configuration
3.5 | Troubleshooting network connectivity | network not working
4 | Firewall and security | protecting the system
4.1 | Firewall concepts | how the packet filter works
4.2 | Defining firewall rules | add a rule to block traffic
4.2.1 | Allowing incoming connections | open a port
4.2.2 | Blocking outgoing traffic | deny outbound packets
4.3 | Managing user accounts and permissions | user access rights | User accounts
4.4 | Encrypting network traffic with TLS | secure connections with certificates | TLS encryption
4.5 | Auditing security events | review the security log
5 | Services | background daemons
5.1 | Starting and stopping services | restart a daemon
5.2 | Configuring the web server | set up an http server
5.2.1 | Virtual hosts | host several websites
5.2.2 | Enabling HTTPS | turn on ssl for the website
5.3 | Scheduling tasks with `cron` | run jobs periodically
5.4 | Sending mail notifications | email alerts
6 | Monitoring and maintenance | keeping the system healthy
6.1 | Reading the system logs | view log files
6.2 | Monitoring network performance | measure bandwidth usage | Network performance
6.3 | Backing up the configuration | save a copy of the settings
6.4 | Restoring from a backup | recover the saved configuration
6.5 | Updating the firmware | flash a new firmware version
A | Command reference | list of commands
B | Glossary of network terms | definitions of terms
"""

STORAGE = """
1 | Getting started | first steps
1.1 | What is new in this release | release highlights
1.2 | Hardware overview | description of the device
1.3 | Connecting the storage array | plug in the disk enclosure
2 | Disks and volumes | managing drives
2.1 | Partitioning a disk | split a drive into partitions
2.2 | Creating a file system | format the partition
2.2.1 | Choosing a file system type | ext4 or xfs which one
2.2.2 | Mount options | settings used when mounting
2.3 | Logical volume management | lvm
2.3.1 | Creating volume groups | make a volume group
2.3.2 | Resizing logical volumes | grow or shrink a volume
2.4 | Software RAID arrays | mirror disks for redundancy
2.5 | Checking disk health with `smartctl` | test a drive for failures
3 | Network storage | storage over the network
3.1 | Exporting directories over NFS | share a folder with nfs
3.2 | Sharing files with Windows clients | samba share for windows
3.3 | Configuring iSCSI targets | block storage over the network
3.4 | Access control for network shares | who can read shared folders
4 | Backup and recovery | protecting data
4.1 | Backup strategies | how often to back up
4.2 | Creating snapshots | point in time copy
4.3 | Scheduling automatic backups | automatic nightly backup
4.4 | Restoring files from a snapshot | get a deleted file back
4.5 | Disaster recovery planning | plan for a total failure
5 | Performance tuning | making it faster
5.1 | Measuring disk throughput | benchmark read and write speed
5.2 | Caching and write-back settings | speed up writes with a cache
5.3 | Tuning the I/O scheduler | change the io scheduler
5.4 | Reducing network latency for storage traffic | lower the delay of nfs traffic
6 | Troubleshooting | fixing problems
6.1 | A disk does not appear | drive not detected
6.2 | Recovering a degraded array | rebuild raid after a disk failure
6.3 | File system errors after a power failure | fsck after an outage
6.4 | Collecting diagnostic information | gather logs for support
"""

RUSSIAN = """
1 | Введение | начало работы
1.1 | О руководстве | что описано в документе
1.2 | Комплект поставки | что входит в коробку
2 | Подключение и установка | установка устройства
2.1 | Подключение к электросети | включить питание
2.2 | Подключение к компьютеру | соединить с компьютером кабелем
2.3 | Первоначальная настройка | первый запуск
3 | Настройка сети | параметры сети
3.1 | Настройка подключения к интернету | как подключить интернет
3.1.1 | Статический IP-адрес | постоянный адрес
3.1.2 | Автоматическое получение адреса по DHCP | динамический адрес
3.2 | Настройка беспроводной сети | параметры wi-fi
3.3 | Гостевая сеть | отдельный доступ для гостей
3.4 | Переадресация портов | проброс портов
4 | Безопасность | защита устройства
4.1 | Смена пароля администратора | поменять пароль
4.2 | Настройка межсетевого экрана | правила файрвола
4.3 | Родительский контроль | ограничить доступ детям
5 | Обслуживание | уход за устройством
5.1 | Обновление микропрограммы | прошивка роутера
5.2 | Сохранение и восстановление настроек | резервная копия конфигурации
5.3 | Сброс к заводским настройкам | вернуть исходные параметры
5.4 | Журнал событий | просмотр логов
6 | Устранение неполадок | решение проблем
6.1 | Нет доступа к интернету | интернет не работает
6.2 | Низкая скорость беспроводной сети | медленный wi-fi
"""

CHINESE = """
1 | 概述 | 简介
1.1 | 产品简介 | 产品介绍
1.2 | 安全注意事项 | 安全须知
2 | 安装 | 安装步骤
2.1 | 系统要求 | 最低配置
2.2 | 安装软件 | 如何安装程序
2.3 | 卸载软件 | 删除程序
3 | 网络设置 | 网络配置
3.1 | 配置网络接口 | 设置网卡
3.1.1 | 设置静态IP地址 | 固定IP
3.1.2 | 使用DHCP自动获取地址 | 自动分配地址
3.2 | 无线网络连接 | 连接WiFi
3.3 | 域名解析设置 | DNS配置
4 | 安全 | 安全设置
4.1 | 修改管理员密码 | 更改密码
4.2 | 防火墙规则 | 设置防火墙
4.3 | 用户权限管理 | 账户权限
5 | 维护 | 日常维护
5.1 | 固件升级 | 更新固件
5.2 | 备份配置文件 | 保存设置
5.3 | 恢复出厂设置 | 重置设备
5.4 | 查看系统日志 | 日志查看
6 | 故障排除 | 常见问题
6.1 | 无法连接网络 | 上不了网
6.2 | 设备无法启动 | 开不了机
"""

# ------------------------------------------------------------------------------------------------
# Prose: sentences about the section's topic, general sentences sharing one vocabulary across the
# whole manual, and cross-references that quote other headings.

EN_TOPIC = [
    "This part of the guide describes the {topic} and the options that control it.",
    "The {topic} settings are stored in the main configuration file and take effect after the service restarts.",
    "Before you change the {topic}, make sure that you have administrator rights on the system.",
    "If an error occurs, the {topic} keeps its previous state and a message is written to the system log.",
    "Most administrators review the {topic} after every upgrade of the software.",
    "The following example shows a typical {topic} on a small office network.",
    "Changes to the {topic} are applied to every interface unless a profile overrides them.",
]
EN_GENERIC = [
    "The network service reads its configuration when it starts and again when it receives a reload signal.",
    "Every command in this chapter must be run as the root user or through sudo.",
    "The configuration file uses a simple key and value format, one setting per line.",
    "Comments start with a hash sign and are ignored by the parser.",
    "A server with two network interfaces can separate management traffic from user traffic.",
    "The default values are suitable for most small installations and rarely need to be changed.",
    "When the system boots, the network is brought up before the storage and the web services.",
    "Log messages include a timestamp, the name of the service and a severity level.",
    "The administrator can inspect the current state with the status command.",
    "Settings made in the web interface are written to the same configuration file.",
    "Disk space for logs and backups should be checked regularly.",
    "Users who are not members of the admin group cannot change system settings.",
    "A restart of the service interrupts existing connections for a few seconds.",
    "The device keeps a copy of the last working configuration in its flash memory.",
    "Remote access is disabled by default and must be enabled explicitly.",
    "Each storage volume is identified by a unique name and a numeric identifier.",
    "Performance depends on the network bandwidth, the disk speed and the number of clients.",
    "The installer checks the hardware and reports any missing drivers.",
    "Firmware images are signed, and the device refuses an image whose signature does not match.",
    "Use a test system to try a new configuration before you apply it to production servers.",
]
EN_CROSSREF = ["For related settings, see section {number}, {title}.",
               "The procedure is similar to the one in {title} (section {number}).",
               "See also {title}."]
# Sentences about another section's topic: real manuals mention the neighbouring features
# everywhere, so a heading's words are spread over many sections, not just its own.
EN_MENTION = ["The {topic} is not affected by this change.",
              "Remember that the {topic} must also be checked afterwards.",
              "On systems where the {topic} is managed centrally, ask the administrator first.",
              "This works together with the {topic}.",
              "A wrong {topic} is the most common cause of problems here."]

RU_TOPIC = [
    "В этом разделе описаны параметры, которые относятся к теме «{topic}».",
    "Параметры раздела «{topic}» сохраняются в памяти устройства и применяются после перезагрузки.",
    "Перед изменением настроек убедитесь, что у вас есть права администратора.",
    "Если при настройке возникает ошибка, устройство сохраняет прежние параметры и записывает сообщение в журнал.",
]
RU_GENERIC = [
    "Устройство подключается к сети провайдера через порт WAN.",
    "Веб-интерфейс доступен по адресу 192.168.0.1 из локальной сети.",
    "Все изменения настроек сети вступают в силу после нажатия кнопки «Сохранить».",
    "Индикатор питания горит зелёным цветом, когда устройство готово к работе.",
    "Для беспроводной сети рекомендуется использовать шифрование WPA2 или WPA3.",
    "Настройки по умолчанию подходят для большинства домашних сетей.",
    "Компьютеры в локальной сети получают адреса от встроенного сервера DHCP.",
    "Пароль администратора должен содержать не менее восьми символов.",
    "Журнал событий хранит сообщения о подключениях, ошибках и изменениях настроек.",
    "При обращении в службу поддержки укажите модель устройства и версию микропрограммы.",
]
RU_CROSSREF = ["Подробнее см. раздел {number} «{title}».", "См. также раздел «{title}»."]
RU_MENTION = ["Эта настройка не влияет на раздел «{topic}».", "После изменения проверьте также: {topic}.",
              "Частая причина проблем — неверные параметры в разделе «{topic}»."]

ZH_TOPIC = [
    "本节介绍{topic}的相关内容和可用选项。",
    "{topic}的参数保存在设备的配置文件中，重启服务后生效。",
    "修改设置之前，请确认您拥有管理员权限。",
    "如果操作失败，设备会保留原来的设置，并在系统日志中记录错误信息。",
]
ZH_GENERIC = [
    "设备通过WAN口连接到运营商的网络。",
    "在局域网中可以通过浏览器访问设备的管理页面。",
    "网络设置修改后，需要点击保存按钮才能生效。",
    "默认设置适用于大多数家庭和小型办公网络。",
    "无线网络建议使用WPA2或WPA3加密方式。",
    "局域网中的计算机通过内置的DHCP服务器获取地址。",
    "管理员密码至少应包含八个字符。",
    "系统日志记录连接、错误以及配置变更等信息。",
    "联系技术支持时，请提供设备型号和固件版本。",
    "设备启动完成后，电源指示灯保持常亮。",
]
ZH_CROSSREF = ["详细信息请参阅第{number}节“{title}”。", "另请参阅“{title}”。"]
ZH_MENTION = ["此设置不会影响{topic}。", "修改完成后，请同时检查{topic}。", "{topic}设置错误是常见的故障原因。"]


@dataclass
class Heading:
    number: str
    title: str          # as printed after the number; `code` marks monospace words
    paraphrase: str
    short: str = ""     # the outline's title, when shorter than the printed one
    page: int = 0       # filled in by the layout (1-based)
    top: float = 0.0    # top of the heading's first line

    @property
    def level(self) -> int:
        return self.number.count(".") + 1

    @property
    def plain(self) -> str:
        return self.title.replace("`", "")


@dataclass
class Manual:
    name: str
    title: str
    script: str                 # latin, cyrillic or cjk
    outline: str                # explicit, zero, named or none
    spec: str
    numbered_outline: bool = True
    short_titles: bool = False  # the outline uses headings' short titles
    chapters_on_new_page: bool = True
    paragraphs: tuple[int, int, int] = (2, 6, 4)  # at most this many paragraphs per level 1, 2, 3
    headings: list[Heading] = field(default_factory=list)


MANUALS = [
    Manual("network-explicit", "NetServe Administration Guide", "latin", "explicit", NETWORK),
    Manual("network-named", "NetServe Administration Guide", "latin", "named", NETWORK, numbered_outline=False,
           short_titles=True),
    Manual("storage-zero", "StorageBox 4 User Manual", "latin", "zero", STORAGE, chapters_on_new_page=False),
    Manual("storage-none", "StorageBox 4 User Manual", "latin", "none", STORAGE, chapters_on_new_page=False),
    Manual("router-cyrillic", "Маршрутизатор RX-200. Руководство пользователя", "cyrillic", "zero", RUSSIAN),
    Manual("router-cjk", "RX-200 路由器用户手册", "cjk", "explicit", CHINESE, chapters_on_new_page=False),
]


def parse_spec(spec: str) -> list[Heading]:
    headings = []
    for row in spec.strip().splitlines():
        number, title, paraphrase, *short = (part.strip() for part in row.split("|"))
        headings.append(Heading(number, title, paraphrase, short[0] if short else ""))
    return headings


def topic_of(heading: Heading) -> str:
    """The heading as a noun phrase for prose ("Configuring the network interface" -> "network interface")."""
    words = heading.plain.split()
    if len(words) > 1 and words[0].lower().endswith("ing"):
        words = words[1:]
    if len(words) > 1 and words[0].lower() in ("the", "a", "an"):
        words = words[1:]
    return " ".join(words).lower() if heading.plain.isascii() else heading.plain


def body_paragraphs(manual: Manual, heading: Heading, rng: random.Random) -> list[str]:
    topic_t, generic, crossref, mention = {"latin": (EN_TOPIC, EN_GENERIC, EN_CROSSREF, EN_MENTION),
                                           "cyrillic": (RU_TOPIC, RU_GENERIC, RU_CROSSREF, RU_MENTION),
                                           "cjk": (ZH_TOPIC, ZH_GENERIC, ZH_CROSSREF, ZH_MENTION)}[manual.script]
    joiner = "" if manual.script == "cjk" else " "
    others = [h for h in manual.headings if h is not heading]
    neighbours = [h for h in others if h.number.split(".")[0] == heading.number.split(".")[0]] or others
    if heading.number[0].isalpha():  # a reference appendix or glossary names every topic once
        return [joiner.join(rng.choice(mention).format(topic=topic_of(other)) for other in others[i:i + 8])
                for i in range(0, len(others), 8)]
    paragraphs = []
    for _ in range(rng.randint(1, manual.paragraphs[min(heading.level, 3) - 1])):
        # many sections never restate their heading in the prose, as in real manuals
        sentences = [t.format(topic=topic_of(heading)) for t in rng.sample(topic_t, rng.choice((0, 0, 1)))]
        sentences += rng.sample(generic, rng.randint(2, 4))
        for other in [*rng.sample(neighbours, min(2, len(neighbours))), rng.choice(others)]:
            sentences.append(rng.choice(mention).format(topic=topic_of(other)))
        rng.shuffle(sentences)
        if rng.random() < 0.35:
            other = rng.choice(others)
            sentences.append(rng.choice(crossref).format(number=other.number, title=other.plain))
        paragraphs.append(joiner.join(sentences))
    return paragraphs


# ------------------------------------------------------------------------------------------------
# Layout: a small typesetter writing lines with TextWriter, page by page.

PAGE_W, PAGE_H = 595.0, 842.0
LEFT, RIGHT, TOP, BOTTOM = 72.0, 523.0, 72.0, 770.0
HEADING_SIZE = {1: 18.0, 2: 14.0, 3: 12.0}
BODY_SIZE, LEADING = 10.0, 13.0


_ADVANCE: dict[tuple[str, str], float] = {}


def text_width(font: pymupdf.Font, text: str, size: float) -> float:
    """Font.text_length with each character's advance cached (it is slow per call)."""
    total = 0.0
    for char in text:
        key = (font.name, char)
        if key not in _ADVANCE:
            _ADVANCE[key] = font.text_length(char, 1.0)
        total += _ADVANCE[key]
    return total * size


class Fonts:
    def __init__(self, script: str) -> None:
        if script == "cjk":
            cjk = pymupdf.Font("cjk")
            self.regular = self.bold = self.code = self.italic = cjk
        else:
            self.regular, self.bold = pymupdf.Font("helv"), pymupdf.Font("hebo")
            self.code, self.italic = pymupdf.Font("cobo"), pymupdf.Font("heit")


class Typesetter:
    def __init__(self, doc: pymupdf.Document, manual: Manual) -> None:
        self.doc, self.manual, self.fonts = doc, manual, Fonts(manual.script)
        self.page: pymupdf.Page | None = None
        self.writer: pymupdf.TextWriter | None = None
        self.y = BOTTOM
        self.chapter = ""
        self.section = ""

    def new_page(self) -> None:
        self.finish_page()
        self.page = self.doc.new_page(width=PAGE_W, height=PAGE_H)
        self.writer = pymupdf.TextWriter(self.page.rect)
        number = self.doc.page_count
        self.writer.append((PAGE_W / 2 - 5, 805), str(number), font=self.fonts.regular, fontsize=9)
        self.y = TOP

    def finish_page(self) -> None:
        """Running header like LaTeX's: the chapter on even pages, on odd ones the last section
        begun on the page (or the one running), drawn after the body as TeX's output routine does."""
        if self.page is not None and self.writer is not None:
            number = self.doc.page_count
            header = self.chapter if number % 2 == 0 else self.section or self.chapter
            if header:
                self.writer.append((LEFT, 45), header, font=self.fonts.italic, fontsize=8)
            self.writer.write_text(self.page)
        self.page, self.writer = None, None

    def wrap(self, text: str, font: pymupdf.Font, size: float, width: float) -> list[str]:
        units = list(text) if self.manual.script == "cjk" else text.split(" ")
        sep = "" if self.manual.script == "cjk" else " "
        lines, current = [], ""
        for unit in units:
            candidate = f"{current}{sep}{unit}" if current else unit
            if current and text_width(font, candidate, size) > width:
                lines.append(current)
                current = unit
            else:
                current = candidate
        return lines + ([current] if current else [])

    def paragraph(self, text: str) -> None:
        for line in self.wrap(text, self.fonts.regular, BODY_SIZE, RIGHT - LEFT):
            if self.y + LEADING > BOTTOM:
                self.new_page()
            self.y += LEADING
            self.writer.append((LEFT, self.y), line, font=self.fonts.regular, fontsize=BODY_SIZE)
        self.y += 5

    def heading(self, heading: Heading) -> None:
        size = HEADING_SIZE[min(heading.level, 3)]
        if heading.level == 1:
            self.chapter, self.section = f"{heading.number} {heading.plain}", ""
        if (heading.level == 1 and self.manual.chapters_on_new_page) or self.y + size * 2 + 4 * LEADING > BOTTOM:
            self.new_page()
        self.y += size * (1.0 if self.y > TOP else 0.2)
        indent = LEFT + text_width(self.fonts.bold, heading.number, size) + size * 0.8
        lines = self.wrap(heading.title, self.fonts.bold, size, RIGHT - indent)
        heading.page, heading.top = self.doc.page_count, self.y + size * 0.25
        if heading.level == 2:
            self.section = f"{heading.number} {heading.plain}"
        self.writer.append((LEFT, self.y + size * 1.25), heading.number, font=self.fonts.bold, fontsize=size)
        for line in lines:
            self.y += size * 1.25
            self.set_words(line, indent, self.y, size)
        self.y += size * 0.5

    def set_words(self, line: str, x: float, y: float, size: float) -> None:
        """A heading line: word by word without space characters in the TeX-like ("named")
        manual, with `code` words in a monospace font at a tight gap; one string otherwise."""
        tex = self.manual.outline == "named"
        if not tex and "`" not in line:
            self.writer.append((x, y), line, font=self.fonts.bold, fontsize=size)
            return
        for word in line.split(" "):
            code = word.startswith("`")
            font = self.fonts.code if code else self.fonts.bold
            text = word.strip("`")
            self.writer.append((x, y), text if tex or code else text + " ", font=font, fontsize=size)
            x += text_width(font, text if tex or code else text + " ", size) + (size * (0.3 if tex else 0.0))
            if code:
                x += size * 0.08

    def contents(self, numbers: list[int]) -> None:
        entries = iter(self.manual.headings)
        for index, number in enumerate(numbers):
            page = self.doc[number]
            writer = pymupdf.TextWriter(page.rect)
            y = TOP
            if index == 0:
                writer.append((LEFT, y + 20), "Contents" if self.manual.script == "latin" else
                              {"cyrillic": "Содержание", "cjk": "目录"}[self.manual.script],
                              font=self.fonts.bold, fontsize=18)
                y += 40
            while y + 14 <= BOTTOM:
                heading = next(entries, None)
                if heading is None:
                    break
                y += 14
                indent = LEFT + 14 * (heading.level - 1)
                writer.append((indent, y), f"{heading.number} {heading.plain}", font=self.fonts.regular, fontsize=10)
                writer.append((RIGHT - 20, y), str(heading.page), font=self.fonts.regular, fontsize=10)
            writer.write_text(page)


def typeset(manual: Manual, path: Path, seed: int) -> Path:
    rng = random.Random(seed)
    manual.headings = parse_spec(manual.spec)
    doc = pymupdf.open()
    setter = Typesetter(doc, manual)
    title_page = doc.new_page(width=PAGE_W, height=PAGE_H)
    writer = pymupdf.TextWriter(title_page.rect)
    for number, line in enumerate(setter.wrap(manual.title, setter.fonts.bold, 24, RIGHT - LEFT)):
        writer.append((LEFT, 250 + 32 * number), line, font=setter.fonts.bold, fontsize=24)
    writer.append((LEFT, 340), "Version 2.4", font=setter.fonts.regular, fontsize=12)
    writer.write_text(title_page)
    contents_pages = [doc.new_page(width=PAGE_W, height=PAGE_H).number
                      for _ in range(-(-len(manual.headings) * 14 // int(BOTTOM - TOP - 40)))]
    for heading in manual.headings:
        setter.heading(heading)
        for text in body_paragraphs(manual, heading, rng):
            setter.paragraph(text)
    setter.finish_page()
    setter.contents(contents_pages)
    write_outline(doc, manual)
    doc.set_metadata({"title": manual.title})
    doc.save(path, garbage=1, deflate=True)
    return path


def outline_title(manual: Manual, heading: Heading) -> str:
    title = heading.short if manual.short_titles and heading.short else heading.plain
    numbered = manual.numbered_outline or heading.level == 1
    return f"{heading.number} {title}" if numbered else title


def write_outline(doc: pymupdf.Document, manual: Manual) -> None:
    if manual.outline == "none":
        return
    toc = []
    for heading in manual.headings:
        y = max(heading.top - 10, 0.0) if manual.outline in ("explicit", "named") else 0.0
        dest = {"kind": pymupdf.LINK_GOTO, "page": heading.page - 1, "to": pymupdf.Point(0 if not y else LEFT, y)}
        toc.append([heading.level, outline_title(manual, heading), heading.page, dest])
    doc.set_toc(toc)
    if manual.outline == "named":
        name_destinations(doc, manual)


def name_destinations(doc: pymupdf.Document, manual: Manual) -> None:
    """Rewrite the outline the way pdfTeX does: each item goes to a named destination
    ("section.3.2"), listed in the catalog's /Names /Dests tree as [page /XYZ left top null];
    every third has no top (`null`), which readers take as "keep the current position"."""
    names = []
    items = {doc.xref_get_key(xref, "Title")[1]: xref for xref in doc.get_outline_xrefs()}
    for number, heading in enumerate(manual.headings):
        name = f"section.{heading.number}"
        xref = items[outline_title(manual, heading)]
        doc.xref_set_key(xref, "A", f"<</S/GoTo/D({name})>>")
        top = "null" if number % 3 == 2 else f"{PAGE_H - max(heading.top - 10, 0.0):.2f}"
        names.append((name, f"[{doc.page_xref(heading.page - 1)} 0 R/XYZ {LEFT:.0f} {top} null]"))
    tree = doc.get_new_xref()
    doc.update_object(tree, "<</Names[" + " ".join(f"({n}){d}" for n, d in sorted(names)) + "]>>")
    doc.xref_set_key(doc.pdf_catalog(), "Names", f"<</Dests {tree} 0 R>>")


# ------------------------------------------------------------------------------------------------
# Evaluation through the real tool.

def title_key(text: str) -> str:
    """A title compared by its letters and digits only (NFKC, case and spacing ignored)."""
    return re.sub(r"[\W_]+", "", unicodedata.normalize("NFKC", text).casefold())


def heading_keys(heading: Heading) -> set[str]:
    """The keys a section's title may have for this heading: with or without its number."""
    titles = [heading.plain] + ([heading.short] if heading.short else [])
    return {title_key(t) for t in titles} | {title_key(f"{heading.number} {t}") for t in titles}


def queries(manual: Manual, heading: Heading) -> list[tuple[str, str]]:
    typed = heading.plain.lower()
    found = [("heading", typed), ("paraphrase", heading.paraphrase)]
    if heading.number[0].isdigit() and heading.level > 1:
        found.append(("numbered", f"{heading.number} {typed}"))
    words = typed.split()
    if len(words) >= 3:
        found.append(("partial", " ".join(words[1:])))
    return found


@dataclass
class Tally:
    hits1: int = 0
    hits10: int = 0
    rr: float = 0.0
    count: int = 0

    def add(self, rank: int | None) -> None:
        self.count += 1
        if rank is not None:
            self.hits1 += rank == 1
            self.hits10 += rank <= 10
            self.rr += 1.0 / rank

    def row(self) -> str:
        if not self.count:
            return f"{'-':>6} {'-':>6} {'-':>6} {0:>4}"
        n = self.count
        return f"{self.hits1 / n:>6.2f} {self.hits10 / n:>6.2f} {self.rr / n:>6.2f} {n:>4}"


def rank_of(matches: list[dict], heading: Heading) -> int | None:
    keys = heading_keys(heading)
    for rank, match in enumerate(matches, 1):
        if match.get("start_page") == heading.page and title_key(match.get("title") or "") in keys:
            return rank
    return None


def index_document(path: Path) -> tuple[Target, float]:
    with open_pdf(str(path)) as opened:
        target = Target(opened.source, None, opened.fingerprint)
    started = time.perf_counter()
    build_index(target)
    if MODE["mode"] != "keyword":
        build_vectors(target)
    return target, time.perf_counter() - started


def section_coverage(target: Target, path: Path) -> tuple[int, int, int]:
    """Outline entries, sections indexed, and outline entries found among the sections (title and page)."""
    doc = pymupdf.open(path)
    toc = doc.get_toc(simple=True)
    index = DocumentIndex(target.fingerprint)
    index.open_existing()
    sections = index.sections()
    have = {(title_key(s["title"]), s["page"]) for s in sections}
    return len(toc), len(sections), sum((title_key(title), page) in have for _, title, page in toc)


def split_correct(target: Target, manual: Manual) -> int:
    """How many headings' sections start with the heading itself: the page's text was split at
    the right line. Uses the builder's section stage directly (the index does not store text)."""
    from pdfdesk.index.builder import _section_lines
    from pdfdesk.index.sections import split_sections

    with open_pdf(str(target.source.path)) as opened:
        pages = opened.page_count
    starts, lines, _kind, title = _section_lines(target, pages, {})
    sections = split_sections(starts, lines, title)
    correct = 0
    for heading in manual.headings:
        keys = heading_keys(heading)
        printed = title_key(f"{heading.number} {heading.plain}")
        for section in sections:
            if section.start_page == heading.page and title_key(section.title) in keys:
                correct += title_key(" ".join(section.text_parts[:4])).startswith(printed)
                break
    return correct


MODE = {"mode": "keyword"}


def evaluate(manual: Manual, path: Path, failures: list[str]) -> dict[str, Tally]:
    tallies: dict[str, Tally] = {}
    for heading in manual.headings:
        for kind, query in queries(manual, heading):
            result = call_tool("pdf_search", {"path": str(path), "query": query, "granularity": "section",
                                              "mode": MODE["mode"], "max_results": 10})
            matches = [] if result.is_error else result.details.get("matches", [])
            rank = rank_of(matches, heading)
            tallies.setdefault(kind, Tally()).add(rank)
            if rank != 1 and kind in ("heading", "numbered"):
                got = matches[0]["title"] if matches else "nothing"
                failures.append(f"{manual.name}: {query!r} -> rank {rank}, first {got!r} (p. {heading.page})")
    return tallies


def run_benchmark(work: Path, verbose: bool) -> dict[str, Tally]:
    header = (f"{'document':18} {'outline':8} {'pages':>5} {'entries':>7} {'sections':>8} {'found':>5} "
              f"{'split':>5} | "
              f"{'heading h@1 h@10 MRR n':>26} | {'numbered h@1 h@10 MRR n':>27} | {'paraphrase h@1 h@10 MRR n':>29}")
    print(header)
    print("-" * len(header))
    totals: dict[str, Tally] = {}
    failures: list[str] = []
    for seed, manual in enumerate(MANUALS):
        path = typeset(manual, work / f"{manual.name}.pdf", seed)
        target, _seconds = index_document(path)
        entries, sections, found = section_coverage(target, path)
        split = split_correct(target, manual)
        tallies = evaluate(manual, path, failures)
        pages = pymupdf.open(path).page_count
        print(f"{manual.name:18} {manual.outline:8} {pages:>5} {entries:>7} {sections:>8} {found:>5} "
              f"{split:>5} | "
              f"{tallies['heading'].row():>26} | {tallies.get('numbered', Tally()).row():>27} | "
              f"{tallies['paraphrase'].row():>29}")
        for kind, tally in tallies.items():
            total = totals.setdefault(kind, Tally())
            total.hits1 += tally.hits1
            total.hits10 += tally.hits10
            total.rr += tally.rr
            total.count += tally.count
    print("-" * len(header))
    print(f"{'all':18} {'':8} {'':>5} {'':>7} {'':>8} {'':>5} {'':>5} | {totals['heading'].row():>26} | "
          f"{totals['numbered'].row():>27} | {totals['paraphrase'].row():>29}")
    print(f"\n{'query kind':12} {'h@1':>6} {'h@10':>6} {'MRR':>6} {'n':>4}")
    for kind in ("heading", "numbered", "partial", "paraphrase"):
        print(f"{kind:12} {totals.get(kind, Tally()).row()}")
    if verbose and failures:
        print("\nmissed heading queries:")
        for line in failures:
            print("  " + line)
    return totals


# ------------------------------------------------------------------------------------------------
# Timing: the section stage on long documents.

def long_manual(pages: int, outline: str) -> Manual:
    """A manual of about `pages` pages: the network manual's chapters repeated as "parts"."""
    base = [h for h in parse_spec(NETWORK) if h.number[0].isdigit()]
    rows = []
    while len(rows) < pages * 1.45:
        part = len(rows) // (len(base) + 1) + 1
        rows.append(f"{part} | Part {part} | part {part}")
        rows += [f"{part}.{h.number} | {h.title} | {h.paraphrase}" for h in base]
    spec = "\n".join(rows)
    return Manual(f"long-{outline}", "NetServe Reference", "latin", outline, spec, chapters_on_new_page=False,
                  paragraphs=(4, 14, 10))


def section_seconds(path: Path) -> tuple[float, int, int]:
    with open_pdf(str(path)) as opened:
        target = Target(opened.source, None, opened.fingerprint)
        pages = opened.page_count
    done: list[float] = []
    build_index(target, progress=lambda *_: done.append(time.perf_counter()))
    finished = time.perf_counter()
    state = DocumentIndex(target.fingerprint).read_state()
    return finished - done[-1], pages, state.section_count if state else 0


def run_timing(work: Path, pages: int) -> None:
    print(f"\nsection stage on long documents (seconds after the last page batch; {os.cpu_count()} cpus):")
    for outline in ("zero", "explicit", "none"):
        manual = long_manual(pages, outline)
        path = typeset(manual, work / f"{manual.name}.pdf", 99)
        seconds, count, sections = section_seconds(path)
        entries = len(manual.headings) if outline != "none" else 0
        print(f"  {manual.name:14} {count:>5} pages {entries:>5} outline entries {sections:>5} sections "
              f"{seconds:>6.2f} s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--timing", action="store_true", help="also time the section stage on long documents")
    parser.add_argument("--timing-only", action="store_true", help="only time the section stage")
    parser.add_argument("--pages", type=int, default=1000, help="pages of the long documents (default 1000)")
    parser.add_argument("--title-boost", type=float, nargs="*", default=[],
                        help="rerun the benchmark with each of these section title boosts")
    parser.add_argument("--verbose", action="store_true", help="list the heading queries that missed")
    parser.add_argument("--any-words", action="store_true",
                        help="what-if: section queries match any of their words (OR, all-words boosted) "
                             "instead of requiring all of them")
    parser.add_argument("--check", action="store_true", help="exit 1 when heading hit@1 < 0.9")
    parser.add_argument("--mode", choices=["keyword", "auto", "semantic"], default="keyword",
                        help="the search mode (auto ranks sections by keywords; semantic uses the built-in model)")
    options = parser.parse_args()
    MODE["mode"] = options.mode
    set_config(Config(semantic=options.mode != "keyword"))
    if options.any_words:
        use_any_words()
    work = Path(tempfile.mkdtemp(prefix="pdfdesk-heading-docs-"))
    print(f"python {sys.version.split()[0]}, PyMuPDF {pymupdf.VersionBind}, index version {store.INDEX_VERSION}")
    boosts = [] if options.timing_only else options.title_boost or [None]
    totals: dict[str, Tally] = {kind: Tally() for kind in ("heading", "numbered", "paraphrase")}
    for boost in boosts:
        if boost is not None:
            set_title_boost(boost)
            print(f"\ntitle boost {boost}:")
        totals = run_benchmark(work, options.verbose)
        close_all()
    if options.timing or options.timing_only:
        run_timing(work, options.pages)
    if not boosts:
        return 0
    combined = Tally()
    for kind in ("heading", "numbered"):
        combined.hits1 += totals[kind].hits1
        combined.count += totals[kind].count
    overall = combined.hits1 / max(combined.count, 1)
    print(f"\nheading queries (typed + numbered): hit@1 {overall:.3f}  target >= 0.9")
    return 1 if options.check and overall < 0.9 else 0


def use_any_words() -> None:
    """Parse section queries with an OR group that still ranks documents with every word first
    (Whoosh's OrGroup.factory(0.9)), to see what requiring all words costs paraphrases."""
    from whoosh.qparser import MultifieldParser, OrGroup

    original = DocumentIndex.parse

    def parse(self, query: str, granularity: str):
        if granularity != "section":
            return original(self, query, granularity)
        parser = MultifieldParser(["title", "text"], store._schema(store.SECTIONS), group=OrGroup.factory(0.9))
        return parser.parse(query)

    DocumentIndex.parse = parse


def set_title_boost(boost: float) -> None:
    """Index the next documents with another section title boost (a fresh index home each time)."""
    if not hasattr(store, "SECTION_TITLE_BOOST"):
        raise SystemExit("this pdfdesk has no store.SECTION_TITLE_BOOST to vary")
    store.SECTION_TITLE_BOOST = boost
    store._schema.cache_clear()
    os.environ["PDFDESK_HOME"] = tempfile.mkdtemp(prefix=f"pdfdesk-heading-bench-{boost}-")


if __name__ == "__main__":
    sys.exit(main())
