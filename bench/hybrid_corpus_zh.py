"""Chinese documents of the hybrid corpus (format: bench/hybrid_corpus.py): the user manual of an
industrial IoT gateway and a master's thesis on rice disease detection.

Target passages and their questions were written together, before any ranking was run. Known-item
queries are runs of characters from the page separated by spaces, as users type them; the
generated pages never state what a target states.
"""

from __future__ import annotations

from bench.hybrid_corpus import DocSpec, TableSpec

# ================================================================================================
# GW-3000 industrial IoT gateway: user manual

MANUAL_TARGETS = """
@ 2 | 电源要求
GW-3000采用直流供电，输入电压范围为9～36V，额定功耗不超过6W。电源端子支持正负极反接保护，但不能直接接入
交流电，否则会烧毁电源模块且不在保修范围内。现场只有24V交流电源时，请加装AC/DC转换模块后再接入网关。
p: 能不能把网关直接插到墙上的220伏插座上 => 不能直接接入交流电
k: 反接保护 电源模块 保修范围
---
@ 3 | 首次登录
网关出厂默认IP地址为192.168.1.1，用户名为admin，初始密码印在机身底部的标签上，每台设备各不相同。首次登录
Web管理界面后，系统会强制要求修改密码，新密码长度至少10位，并须同时包含字母和数字。
p: 第一次进管理页面用什么账号密码 => 初始密码印在机身底部的标签上
k: 强制要求修改密码 至少10位
---
@ 2 | RS-485接线
RS-485总线采用手拉手方式连接，不要接成星形。总线长度超过100米或波特率高于19200时，应在总线两端各接一个
120Ω终端电阻；网关一端的终端电阻可通过拨码开关SW2的第1位启用，无需外接。
p: 串口通讯经常出错丢数据，线路上要怎么处理 => 在总线两端各接一个120Ω终端电阻
k: 手拉手 星形 拨码开关
---
@ 5 |
单台网关最多支持2000个数据点和32台南向设备，最小采集周期为100毫秒。数据点超过1000个时，建议将采集周期设为
1秒以上，否则串口轮询来不及完成，Web界面会显示“采集超时”。
p: 一台网关最多能接多少个测点 => 最多支持2000个数据点
k: 32台南向设备 轮询来不及
---
@ 6 | 断网缓存
当与云平台的连接中断时，网关会把采集数据保存在本地缓存中，最多保存72小时或50万条记录，以先到者为准。网络恢复后，
缓存数据按时间顺序自动补传，补传速率限制为每秒200条，以免影响实时数据的上报。
p: 网络断了以后采集的数据会不会丢 => 最多保存72小时或50万条记录
k: 以先到者为准 补传速率
---
@ 4 |
网关内置4G模块，支持中国移动、中国联通和中国电信的物联网卡。使用专网卡时，需要在“网络设置→蜂窝网络”中填写运营商
提供的APN名称、用户名和密码；普通手机流量卡也可使用，但部分运营商会限制其在非手机设备上使用。
p: 可以用手机上的流量卡给网关上网吗 => 普通手机流量卡也可使用
k: 专网卡 APN名称 蜂窝网络
---
@ 6 |
连接阿里云物联网平台时，必须启用TLS加密：在“北向接口→MQTT”中选择端口8883，并导入平台下发的设备证书和私钥。
证书到期前30天，网关会在系统日志中每天记录一条提醒，到期后连接将被平台拒绝。
p: 数据传到云上怎么做加密 => 选择端口8883
k: 设备证书和私钥 到期前30天
---
@ 7 | 告警去抖
为避免测量值在阈值附近波动造成频繁告警，规则引擎提供“连续触发次数”参数。例如设为3时，只有温度连续3次采集都超过
阈值才会产生告警；恢复时同样需要连续3次低于阈值，告警才会解除。
p: 怎样避免偶尔一次数值超标就报警 => 连续触发次数
k: 阈值附近波动 告警才会解除
---
@ 11 |
如果忘记管理员密码，可在网关通电状态下用细针长按RESET键10秒，直到运行指示灯快速闪烁后松开，网关将恢复出厂设置
并自动重启。恢复出厂设置会清除所有采集任务和证书，请事先用“导出配置”功能备份。
p: 管理密码忘了，进不去系统怎么办 => 长按RESET键10秒
k: 细针 运行指示灯快速闪烁
---
@ 9 | 固件升级
网关采用A/B双分区设计，新固件写入备用分区。升级过程中请勿断电；即使意外断电或新固件启动失败，网关也会在下次
上电时自动回滚到原来的版本，不会导致设备无法启动。
p: 升级到一半停电了，设备会不会变砖 => 自动回滚到原来的版本
k: 双分区 备用分区
---
@ 1 |
GW-3000的工作温度为-40～75℃，存储温度为-45～85℃，相对湿度5%～95%（无凝露），防护等级IP40。安装在室外时应
放入带遮阳的防水机箱，避免阳光直射导致机壳温度超过上限。
p: 冬天放在没有暖气的室外箱子里能正常工作吗 => 工作温度为-40～75℃
k: 遮阳 防水机箱 IP40
---
@ 8 |
未配置NTP服务器时，网关使用内部实时时钟计时，每天误差不超过2秒，断电后由板载电池维持约5年。配置NTP后，网关每
6小时与服务器校时一次，并在系统日志中记录校正的偏差。
p: 网关的时间用久了会不会越来越不准 => 每天误差不超过2秒
k: 板载电池 每6小时 校时
---
@ 10 | gwctl point read
`gwctl point read`用于调试时临时读取某个数据点的当前值，不经过采集任务和缓存。例如：
$ gwctl point read --device plc-01 --addr 40001 --type uint16
命令直接向设备发送一次读请求并打印原始值与换算后的值；设备无响应时在3秒后返回错误码E-TIMEOUT。
p: 调试时怎么单独读一下某个寄存器现在的数值 => 不经过采集任务和缓存
k: 原始值 换算后的值 E-TIMEOUT
"""

MANUAL_SLOTS = {
    "term": ["采集任务", "数据点", "设备模板", "串口", "以太网口", "4G模块", "MQTT连接", "规则引擎", "告警规则", "用户账户",
             "系统日志", "北向接口", "南向设备", "Web管理界面", "变量表", "脚本", "本地数据库", "定时任务", "网络诊断", "Modbus从站"],
    "cmd": ["gwctl status", "gwctl device list", "gwctl task start", "gwctl task stop", "gwctl net show", "gwctl log export",
            "gwctl cert import", "gwctl user add", "gwctl mqtt test", "gwctl config save", "gwctl rule list", "gwctl tag import"],
    "opt": ["--json", "--device", "--task", "--since", "--limit", "--verbose", "--output", "--force", "--port"],
    "key": ["serial.baudrate", "serial.parity", "modbus.timeout_ms", "modbus.retry", "mqtt.keepalive", "mqtt.qos",
            "net.dhcp", "log.level", "task.interval_ms", "web.port", "web.session_min", "rule.eval_ms", "opcua.port"],
    "device": ["plc-01", "plc-02", "meter-a3", "inverter-7", "boiler-2", "chiller-1", "vfd-05", "sensor-hub"],
    "menu": ["系统状态", "南向设备", "北向接口", "采集任务", "规则引擎", "系统设置", "用户管理", "日志查看"],
    "proto": ["Modbus RTU", "Modbus TCP", "OPC UA", "西门子S7", "三菱MC", "欧姆龙FINS", "DL/T 645", "BACnet/IP"],
    "level": ["debug", "info", "warn", "error"],
    "optdesc": ["以JSON格式输出结果", "只显示指定设备的信息", "显示指定时间之后的记录", "将结果保存到指定文件", "显示详细信息",
                "不经确认直接执行", "限制输出的行数"],
    "optdef": ["`{opt}` | 该参数{optdesc}，可以与其他参数组合使用。", "`{key}` | 对所有{term}生效，修改后需要重启采集服务。",
               "`{opt} <value>` | 该参数{optdesc}，默认不启用。"],
}

MANUAL_PROSE = [
    "每个{term}只能属于一个采集任务，任务的采集周期决定了{term}的刷新频率。",
    "参数`{key}`对整个网关生效，不能在单个设备上单独设置。",
    "执行`{cmd}`可以查看最近{int:2:48}小时内所有{term}的运行状态。",
    "如果只需要查看某一台设备，例如`{device}`，可以执行`{cmd} {opt}`。",
    "修改`{key}`后需要在“{menu}”页面点击“保存并应用”，配置才会生效。",
    "从{ver}版本开始，{term}增加了`{opt}`参数，该参数{optdesc}。",
    "在Web管理界面中，{term}位于“{menu}”菜单下。",
    "网关将{term}的每次变更记录在系统日志中，日志级别为`{level}`。",
    "大多数情况下无需修改`{key}`的默认值。",
    "{term}支持{proto}协议，可与大多数主流控制器通信。",
    "当{term}处于忙碌状态时，命令最多等待{int:5:60}秒后返回错误。",
    "本节中的数据是在连接{int:4:32}台南向设备的测试环境中测得的。",
    "建议将{term}的名称设置为便于识别的英文字母和数字组合。",
    "采集任务启动后，{term}的状态会在“{menu}”页面中实时显示。",
    "导入设备模板时，模板中的{term}会一并导入。",
    "{term}与{term}相互独立，修改其中一个不会影响另一个。",
    "详细参数说明请参阅第{ref}节。",
    "命令行工具`{cmd}`与Web管理界面的功能相同，适合批量操作和脚本调用。",
    "如果`{key}`未配置，网关使用出厂默认值。",
    "通过{proto}采集时，每个请求最多读取{int:16:125}个连续寄存器。",
    "{term}的配置保存在网关的闪存中，断电后不会丢失。",
    "示例中的设备名称`{device}`和`{device}`仅供参考，请替换为实际名称。",
    "修改{term}前，建议先用“导出配置”功能保存当前配置。",
    "用户角色为“只读”的账户只能查看{term}，不能修改。",
    "同一时刻最多有{int:2:8}个用户登录Web管理界面。",
    "{term}的运行统计每{int:1:15}分钟更新一次。",
    "当{proto}设备返回异常码时，网关会在日志中记录寄存器地址和异常码。",
]

MANUAL_CODE = [
    "$ {cmd} --device {device}\nDEVICE       PROTOCOL     STATE    POINTS   LAST POLL\n{device:13}modbus-rtu   online   {num:10:400}      {num:1:59}s ago\n{device:13}modbus-tcp   online   {num:10:400}      {num:1:59}s ago\n{device:13}opcua        offline  {num:10:400}      {num:2:9}m ago",
    "# /etc/gw/task-{num:1:9}.yaml\ntask:\n  name: line{num:1:9}-collect\n  interval_ms: {num:200:5000}\n  device: {device}\n  points:\n    - name: temp_{num:1:9}\n      addr: 4000{num:1:9}\n      type: int16\n      scale: 0.1\n    - name: press_{num:1:9}\n      addr: 4001{num:1:9}\n      type: uint16",
    "$ {cmd} {opt} --json\n{\n  \"device\": \"{device}\",\n  \"state\": \"online\",\n  \"points\": {num:10:400},\n  \"errors\": {num:0:9}\n}",
    "[mqtt]\nbroker = \"iot.example.cn\"\nport = 1883\nkeepalive = {num:30:300}\nqos = {num:0:1}\ntopic = \"factory/line{num:1:9}/data\"",
]

MANUAL = DocSpec(
    id="zh-gw3000-user-manual", lang="zh", kind="manual", half="report",
    title="GW-3000 工业物联网网关 用户手册", subtitle="适用于固件版本 V3.2 及以上",
    byline=["深圳恒拓智联科技有限公司", "文档版本 3.2.0  发布日期 2024年3月"],
    running="GW-3000 工业物联网网关 用户手册", pages=168,
    chapters=["产品概述", "安装与接线", "首次配置", "网络设置", "数据采集", "协议转换与上云", "边缘计算规则", "安全设置",
              "固件升级与维护", "命令行参考|definitions", "故障排除"],
    chapter_label="第{n}章",
    section_titles=["{term}的配置", "{term}的管理", "查看{term}", "新建{term}", "删除{term}", "{term}的限制",
                    "使用{cmd}", "{proto}设备的接入", "{term}常见问题", "{term}参数说明"],
    slots=MANUAL_SLOTS, prose=MANUAL_PROSE, targets=MANUAL_TARGETS, sentences=(4, 7),
    blocks={"prose": 6.0, "code": 1.0, "steps": 0.6, "items": 0.5, "table": 0.8, "note": 0.4, "deflist": 0.6},
    steps=["登录Web管理界面，进入“{menu}”页面。", "执行`{cmd}`，确认列表中有`{device}`。", "将参数`{key}`设置为所需的值。",
           "点击“保存并应用”。", "在列表中选择{term}，点击“编辑”。", "查看系统日志中是否有`{level}`级别的信息。"],
    items=["`{key}`：对所有{term}生效；", "`{opt}`：{optdesc}；", "支持{proto}协议的{term}；", "至少{int:2:64}MB的可用存储空间；"],
    notes=["修改`{key}`会影响所有{term}，而不仅是新建的。", "删除{term}后无法恢复，请先导出配置。",
           "`{cmd}`默认需要确认，在脚本中请加上`--force`。"],
    code=MANUAL_CODE,
    tables=[TableSpec("`{cmd}`的参数", ["参数", "默认值", "说明"], ["{opt}", "{defv}", "{optdesc}"], (4, 7)),
            TableSpec("不同数据点数量下的资源占用", ["数据点", "采集周期(ms)", "CPU占用(%)", "内存(MB)", "上报延迟(ms)"],
                      ["{int:100:2000}", "{int:100:5000}", "{int:5:90}", "{int:40:400}", "{int:20:900}"], (4, 9)),
            TableSpec("支持的协议及参数", ["协议", "接口", "最大设备数", "最大点数"],
                      ["{proto}", "{iface}", "{int:1:32}", "{int:100:2000}"], (4, 8))],
    lead={"code": ["示例：", "命令输出如下：", "典型的配置文件如下："], "steps": ["操作步骤如下：", "按以下步骤设置："],
          "items": ["开始之前，请准备：", "涉及以下参数："], "table": ["下表列出了在测试环境中测得的数据。"],
          "deflist": ["该命令支持以下参数："]},
    deflist="optdef", index_slots=("term", "cmd", "key"),
)
MANUAL_SLOTS["defv"] = ["无", "关闭", "开启", "30秒", "100", "全部设备"]
MANUAL_SLOTS["iface"] = ["RS-485", "RS-232", "以太网", "4G"]

# ================================================================================================
# A master's thesis: rice disease detection with an improved YOLOv5

THESIS_ABSTRACT = """
水稻病害是影响水稻产量和品质的重要因素，传统的人工识别方法效率低、依赖经验。本文针对田间复杂背景下水稻叶部病害
识别精度不高、小病斑容易漏检的问题，提出一种基于改进YOLOv5的水稻病害识别方法，并开发了面向农户的识别系统。

本文的主要工作包括：构建了田间水稻病害图像数据集；在YOLOv5s的基础上改进了特征提取网络和损失函数；在嵌入式设备上
完成了模型部署与测试。实验结果表明，改进后的模型在保持实时性的同时提高了识别精度，可为水稻病害的早期防治提供技术支持。
"""

THESIS_TARGETS = """
@ 3 | 图像采集
本文所用图像于2022年7月至9月在湖南省长沙县的水稻试验田中采集，拍摄设备为两部智能手机，拍摄时间为上午9时至下午4时，
拍摄距离为20～50厘米。为了贴近实际使用场景，拍摄时未使用背景板，图像中保留了杂草、水面反光和相邻叶片等复杂背景。
p: 训练用的照片是在什么地方拍的 => 湖南省长沙县的水稻试验田
k: 背景板 水面反光 相邻叶片
---
@ 3 |
数据集共包含8460张图像，分为稻瘟病、白叶枯病、纹枯病、胡麻斑病、稻曲病和健康叶片共6类，其中胡麻斑病图像最少，
仅有912张。按照7:2:1的比例将数据集随机划分为训练集、验证集和测试集，同一植株的图像只出现在同一子集中。
p: 数据集里一共分了几种病 => 共6类
k: 8460张 稻曲病 同一植株
---
@ 3 | 数据标注
图像标注使用开源工具LabelImg完成，以矩形框标出每一个病斑区域，标注格式为YOLO格式。全部标注由两名植物保护专业的
研究生完成并交叉核对，意见不一致的样本由指导教师最终确定，共标注病斑目标41,237个。
p: 病斑的框是用什么软件画的 => LabelImg
k: 交叉核对 指导教师 矩形框
---
@ 3 |
数据增强采用Mosaic拼接、随机旋转（±15°）、随机缩放和色调扰动等方法。考虑到田间拍摄时叶片大多自上而下生长且
光照方向固定，本文没有使用垂直翻转，以免生成现实中不会出现的样本。
p: 为什么没有把图片上下颠倒来扩充数据 => 没有使用垂直翻转
k: Mosaic拼接 色调扰动 光照方向
---
@ 4 | 注意力机制
为了使网络更加关注病斑区域，本文在主干网络的末端加入了卷积块注意力模块CBAM。CBAM依次在通道和空间两个维度上计算
注意力权重，对特征图进行重新标定，参数量仅增加约0.2%。
p: 模型结构里加了什么让它更关注叶子上的病斑 => 卷积块注意力模块CBAM
k: 通道和空间 重新标定
---
@ 4 |
原YOLOv5使用CIoU作为边框回归损失，本文将其替换为SIoU。SIoU在计算中引入了预测框与真实框中心连线的角度，使预测框
更快地向真实框靠拢。实验中，训练达到相同验证集损失所需的轮数减少了约12%。
p: 为什么改进后的模型训练起来收敛更快 => 替换为SIoU
k: 中心连线的角度 边框回归
---
@ 5 | 实验环境与参数
所有实验在一台配备NVIDIA RTX 3090显卡（24GB显存）的工作站上完成，操作系统为Ubuntu 20.04，深度学习框架为PyTorch
1.12。训练时输入尺寸为640×640，批大小为16，共训练300轮，初始学习率为0.01，采用余弦退火策略。
p: 用的什么显卡训练，训练了多少轮 => NVIDIA RTX 3090显卡
k: 余弦退火 批大小 24GB显存
---
@ 5 |
在测试集上，改进模型的mAP@0.5达到92.7%，比原YOLOv5s提高了3.9个百分点，推理时间仅增加1.3毫秒。其中纹枯病和
稻曲病的提升最为明显，分别提高了6.2和5.4个百分点。
p: 改进以后识别准确率比原来提高了多少 => 提高了3.9个百分点
k: 推理时间仅增加 1.3毫秒
---
@ 5 |
在六个类别中，胡麻斑病的召回率最低，仅为78.4%。胡麻斑病的病斑直径多在1～3毫米，在640×640的输入图像中往往只占
几个像素，且容易与叶面上的泥点混淆，这是漏检的主要原因。
p: 哪一种病最容易被模型漏掉 => 胡麻斑病的召回率最低
k: 泥点 病斑直径
---
@ 6 | 嵌入式部署
将模型转换为TensorRT格式并进行FP16量化后，部署在NVIDIA Jetson Nano开发板上，推理速度达到每秒23帧，功耗约为
7瓦，可以满足田间巡检机器人实时识别的需要。
p: 这个模型能在田里的小设备上实时运行吗 => 每秒23帧
k: TensorRT FP16量化 巡检机器人
---
@ 6 |
为方便农户使用，本文开发了基于微信小程序的识别系统。用户拍照上传后，服务器在2秒内返回病害名称、置信度和防治建议，
防治建议由当地农业技术推广站的专家审核。系统试运行期间共有316名用户使用。
p: 农民平时要怎么用这个识别系统 => 基于微信小程序的识别系统
k: 防治建议 农业技术推广站 316名
---
@ 7 |
本研究仍存在一些不足：数据仅在晴天和阴天的白天采集，缺少雨天、清晨露水较多以及夜间补光条件下的图像；此外，数据
全部来自同一地区的两个品种，模型在其他地区和品种上的表现还有待验证。
p: 这个研究还有哪些没解决的问题 => 缺少雨天
k: 露水较多 夜间补光 两个品种
"""

THESIS_SLOTS = {
    "model": ["YOLOv5s", "YOLOv7", "Faster R-CNN", "SSD", "YOLOv8n", "RetinaNet", "EfficientDet-D0"],
    "metric": ["准确率", "精确率", "召回率", "F1值", "平均精度均值", "推理速度", "参数量", "计算量"],
    "disease": ["稻瘟病", "白叶枯病", "纹枯病", "稻曲病"],
    "method": ["迁移学习", "特征金字塔", "多尺度训练", "知识蒸馏", "模型剪枝", "数据增强", "注意力机制", "锚框聚类"],
    "author": ["王伟", "李娜", "张强", "刘洋", "陈静", "杨帆", "赵磊", "黄敏", "周杰", "吴昊", "徐丽", "孙鹏", "马超", "朱琳"],
    "journal": ["农业工程学报", "农业机械学报", "中国农业科学", "计算机工程与应用", "江苏农业科学", "智慧农业",
                "南方农业学报", "计算机应用"],
    "reftopic": ["基于深度学习的{disease}识别方法", "改进{model}的作物病害检测", "基于{method}的农作物病害图像识别",
                 "田间复杂背景下水稻病害检测研究", "轻量化卷积神经网络在植物病害识别中的应用"],
    "en_author": ["Zhang Y", "Li X", "Wang J", "Liu H", "Chen Z", "Redmon J", "Woo S", "He K", "Lin T Y", "Ferentinos K P"],
    "en_topic": ["Deep learning models for plant disease detection", "Rice disease identification using CNN",
                 "Attention mechanisms in object detection", "Small object detection in agricultural images"],
    "stage": ["分蘖期", "拔节期", "孕穗期", "抽穗期", "灌浆期"],
}

THESIS_PROSE = [
    "与{model}相比，本文方法在{metric}上具有一定优势，但在{metric}上仍有提升空间。",
    "{author}等{cite}采用{method}提高了{disease}的识别效果。",
    "近年来，{method}在农作物病害识别中得到了广泛应用{cite}。",
    "表{tab}给出了不同模型在测试集上的{metric}。",
    "由图{fig}可以看出，随着训练轮数的增加，{metric}逐渐趋于稳定。",
    "{disease}多发生在水稻{stage}，病斑形态随发病时间变化较大。",
    "为了验证{method}的作用，本文设计了消融实验，结果见第{ref}节。",
    "在相同实验条件下，{model}的{metric}为{pct:60:95}%。",
    "{author}等{cite}指出，田间图像的复杂背景是影响识别精度的主要因素之一。",
    "本节所有实验均重复三次，取平均值作为最终结果。",
    "从实验结果来看，{method}对{disease}的识别帮助较大。",
    "与实验室环境下拍摄的图像相比，田间图像的光照和背景变化更大。",
    "{metric}的计算方法见式（{num:1:9}）。",
    "目前基于深度学习的病害识别方法主要分为两阶段检测方法和单阶段检测方法{cite}。",
    "{model}在速度上具有优势，但对小目标的检测效果较差{cite}。",
    "如第{ref}节所述，数据集的类别分布并不均衡。",
    "在{stage}采集的图像中，{disease}的病斑特征最为明显。",
    "本文使用{metric}和{metric}作为主要评价指标。",
    "{method}可以在不增加推理时间的情况下提高模型的泛化能力。",
    "国内外学者针对{disease}的自动识别开展了大量研究{cite}。",
    "实验中{model}的训练参数与本文模型保持一致，以保证比较的公平性。",
]

THESIS = DocSpec(
    id="zh-rice-disease-thesis", lang="zh", kind="paper", half="tune",
    title="基于改进YOLOv5的水稻病害识别方法研究", subtitle="硕士学位论文（农业工程）",
    byline=["研究生：陈晓彤    指导教师：刘建国 教授", "华南农林大学 工程学院", "二〇二三年六月"],
    running="华南农林大学硕士学位论文", pages=98,
    chapters=["绪论", "相关理论与技术基础", "水稻病害图像数据集的构建", "改进YOLOv5模型设计", "实验与结果分析",
              "水稻病害识别系统的实现", "总结与展望", "参考文献|references"],
    chapter_label="第{n}章",
    section_titles=["{method}", "{model}模型简介", "{metric}的评价", "{disease}的特征分析", "基于{method}的改进",
                    "{disease}识别结果", "对比实验", "消融实验", "{method}的效果分析"],
    slots=THESIS_SLOTS, prose=THESIS_PROSE, targets=THESIS_TARGETS, citations=62, sentences=(4, 7),
    blocks={"prose": 5.5, "table": 1.3, "figure": 0.9, "items": 0.3},
    items=["{method}；", "{model}模型的{metric}；", "{disease}在{stage}的表现；"],
    lead={"items": ["本章的主要内容包括：", "本文的创新点如下："], "table": ["各模型的结果如下表所示。"]},
    figures=["不同模型的{metric}对比", "{disease}样本示例", "训练过程中{metric}的变化曲线", "{method}结构示意图"],
    tables=[TableSpec("不同模型的检测结果对比", ["模型", "精确率(%)", "召回率(%)", "mAP@0.5(%)", "参数量(M)"],
                      ["seq:model", "{dec:1:70:93}", "{dec:1:65:90}", "{dec:1:70:91}", "{dec:1:3:60}"], (5, 7)),
            TableSpec("各类病害的识别结果", ["类别", "样本数", "精确率(%)", "召回率(%)", "F1值"],
                      ["seq:disease", "{int:800:1900}", "{dec:1:80:97}", "{dec:1:80:96}", "{dec:3:0.8:0.96}"], (4, 4)),
            TableSpec("消融实验结果", ["方案", "改进内容", "mAP@0.5(%)", "FPS"],
                      ["方案{num:1:6}", "{method}", "{dec:1:85:92}", "{int:60:140}"], (4, 6))],
    references=["{author}，{author}. {reftopic}[J]. {journal}，{year:2015:2023}，{num:20:40}({num:1:24})：{num:1:200}-{num:201:300}.",
                "{en_author}, {en_author}. {en_topic}[J]. Computers and Electronics in Agriculture, {year:2016:2023}, {num:100:210}: {num:100:999}.",
                "{author}. {reftopic}[D]. 杭州：浙江大学，{year:2016:2022}."],
    abstract=THESIS_ABSTRACT, keywords="水稻病害；目标检测；YOLOv5；注意力机制；嵌入式部署",
)


def documents() -> list[DocSpec]:
    return [MANUAL, THESIS]
