"""English documents of the hybrid corpus (format: bench/hybrid_corpus.py): a backup server's
administrator manual and a PhD thesis on deficit irrigation.

Target passages and their questions were written together, before any ranking was run. The slot
lists never name what a target answers (its options, numbers, error texts), so the generated pages
around the targets talk about the same subjects without answering the questions.
"""

from __future__ import annotations

from bench.hybrid_corpus import DocSpec, TableSpec

# ================================================================================================
# Tidewater Backup Server: administrator's guide

MANUAL_TARGETS = """
@ 2 | Memory sizing
The server keeps the whole deduplication index in memory while a job runs. Plan for 4 GB of RAM for
every 10 TB of unique data in the repository, plus 2 GB for the operating system and the web console.
A repository of 30 TB therefore needs at least 14 GB. If the index does not fit, the server falls
back to lookups on disk and backups become five to ten times slower; the server log then shows the
warning `index spilled to disk` once per job.
p: how much RAM do I need if my backups take up a lot of space => 4 GB of RAM for every 10 TB
p: why did backups suddenly get much slower after the store grew => index spilled to disk
k: index spilled to disk
---
@ 2 | Upgrading from release 3
Upgrading from a 3.x release converts the catalog to the new format. The conversion cannot be undone,
so run `tidectl catalog export --output catalog-3x.json` first and keep the file until the upgrade
has been verified. Agents of release 3.8 or later keep working with a 4.2 server; older agents must be
upgraded before the server, otherwise their jobs fail with error T-217.
p: will my old clients still work once the server is on the new version => Agents of release 3.8 or later keep working
k: catalog export conversion undone
---
@ 3 | Moving a repository to another disk
To move a repository to a larger disk, stop all jobs with `tidectl maintenance on`, copy the
repository directory together with its hidden `.tide` folder (for example with `rsync -aH`), point
the server at the new location and run `tidectl repo check --quick` before you switch maintenance
off. Never copy a repository while a job writes to it: pack files that are half written make the copy
unusable, and the check then reports them as truncated.
p: I want to put my backup storage on a bigger drive, what is the safe way => rsync -aH
k: hidden tide folder rsync
---
@ 4 | Blackout windows
A blackout window stops scheduled jobs from starting during business hours. Set
`schedule.blackout = "08:00-18:00"` in the job file; a job that falls due inside the window starts
when the window ends instead. Jobs that are already running when a window begins are not interrupted,
and manual runs started with `tidectl job run` ignore blackout windows altogether.
p: how do I keep backups from running while people are at work => schedule.blackout
k: blackout window business hours
---
@ 4 |
To back up a database in a consistent state, let a hook dump it before the job reads any files.
`hooks.before = "/usr/local/bin/pg-dump.sh"` runs the script and waits up to `hooks.timeout` seconds
(300 unless set). If the script exits with a status other than zero, the job is skipped and marked
FAILED-HOOK in the job history; it is not retried before its next scheduled run.
p: what if my pre-backup dump command errors out => marked FAILED-HOOK
p: how can I get a clean copy of a running postgres database => hooks.before
k: hooks timeout pg-dump
---
@ 5 | The gfs policy
The `gfs` policy (grandfather, father, son) keeps 7 daily, 4 weekly, 12 monthly and 3 yearly snapshots
unless told otherwise. A snapshot counts as weekly when it is the last one of an ISO week, Monday to
Sunday, and as monthly when it is the last one of a calendar month. A snapshot that is kept for more
than one reason is stored only once and counts in every rule that keeps it.
p: how many end-of-month copies are kept if I leave the defaults => 12 monthly
k: gfs grandfather iso week
---
@ 5 |
Pruning removes snapshots from the catalog at once, but their space is given back only by the next
garbage collection, which runs on Sundays at 03:00. To free the space straight away, run
`tidectl gc --now`. Garbage collection needs free space of about 2 % of the repository size for its
temporary files; with less, it stops and leaves the repository unchanged.
p: I deleted old backups but the disk is still just as full => tidectl gc --now
p: when does the cleanup that reclaims space happen on its own => Sundays at 03:00
---
@ 6 | Restoring a single file
To get back one file without restoring a whole snapshot, mount the snapshot read-only with
`tidectl mount latest /mnt/restore` and copy the file out with any file manager. The mount stays
available until you run `tidectl umount /mnt/restore` or the server restarts. Mounting needs FUSE 3
on Linux; for Windows agents use the Restore tab of the web console instead.
p: I only need one document back from last night, not everything => tidectl mount latest
k: mount read-only fuse umount
---
@ 6 | Restoring to another host
A snapshot can be restored to a different host from the one it was taken on. Name the receiving
agent with `--to-host` and the directory with `--target`. File ownership is mapped by user name, and
files whose owner does not exist on the receiving host are given to the user `nobody`. Permissions,
timestamps and extended attributes are kept.
p: who ends up owning the files if I restore onto a computer that lacks those user accounts => nobody
k: ownership mapped by user name
---
@ 7 | Losing the passphrase
Repositories are encrypted with AES-256 in GCM mode. The key is derived from the passphrase with
Argon2id and kept, wrapped, in the `keys/` directory inside the repository. If the passphrase is
lost the data cannot be recovered, not even by our support team: print the recovery sheet with
`tidectl key export --paper` and keep it in a safe.
p: what can I do if I forget the password protecting my backups => cannot be recovered
k: argon2id passphrase recovery sheet
---
@ 8 | Bandwidth limits
Agents send data at full speed unless a limit is set. `net.upload_limit = "20MiB/s"` in the agent's
configuration caps the rate, and `net.limit_schedule` applies the cap only during the hours it names,
for example `"Mon-Fri 07:00-19:00"`. The cap covers backup traffic only; restores always run at full
speed.
p: can I stop backups from eating our whole internet connection during the day => net.limit_schedule
p: will getting files back be throttled too if I limit the agents' speed => restores always run at full speed
k: cap covers backup traffic
---
@ 8 | Firewall ports
Agents connect to the server on TCP port 7443; the web console listens on port 8443. Both use TLS.
The server never opens a connection to an agent, so only the server's two ports have to be reachable,
and agents behind NAT or a home router work without any port forwarding.
p: which ports must be open so the clients can reach the backup machine => 7443
k: port forwarding nat 8443
---
@ 9 |
E-mail alerts go out when a job fails twice in a row, when a repository check finds damaged pack
files, or when the free space of a storage pool falls below 10 %. Set the outgoing relay with
`alerts.smtp = "mail.example.com:587"`. Alerts about the same job are sent at most once every six
hours, however often it fails in between.
p: I'm only notified about some of the broken nightly runs, not all of them, why => fails twice in a row
k: alerts smtp relay
---
@ 10 | Parallel upload streams
On fast networks a single upload stream rarely carries more than 120 MB/s. Raise `upload.streams` from
its default of 2 to between 4 and 8 on 10 Gbit/s links. Do not configure more streams than the agent
has processor cores: compression then competes for the processor and the job becomes slower, not
faster.
p: backups don't use our 10 gig network fully, what setting should I change => Raise upload.streams from its default of 2
k: single upload stream 120
---
@ 11 | tidectl verify
`tidectl verify` reads every pack file of a snapshot back from storage and compares its checksum.
With `--sample 5` it reads only 5 % of the pack files, chosen at random; a full verification of
1 TB takes about 40 minutes on local disks. Exit status 3 means damaged pack files were found, and
their names are written to `verify-report.txt` in the current directory.
p: how do I test that the backups can actually be read without checking all of them => sample 5
k: verify exit status 3
---
@ 13 | Stale locks
If a job was killed or the server lost power, the repository may keep a stale lock, and new jobs stop
with `repository is locked by PID 4711`. Make sure that no tidectl process is still running on any
host, then remove the lock with `tidectl repo unlock --stale`. Locks older than 24 hours are removed
automatically when the server starts.
p: after a power cut backups refuse to start and say something is locked => tidectl repo unlock --stale
k: stale lock power unlock
---
@ 13 |
An agent whose clock differs from the server's by more than five minutes is refused with the message
`clock skew too large`, because snapshot times and certificate checks depend on it. Run an NTP client
such as chrony on every agent; on Windows, enable the Windows Time service and point it at the same
source as the server.
p: one client suddenly can't connect and I noticed its time is wrong => clock skew too large
k: chrony windows time service
"""

MANUAL_SLOTS = {
    "term": ["repository", "snapshot", "backup job", "agent", "schedule", "catalog", "storage pool", "pack file",
             "restore point", "retention policy", "file set", "job history", "transfer queue", "staging area",
             "web console", "service account", "maintenance window", "verification run", "chunk cache",
             "tag", "job file", "spool directory", "upload session", "catalog cache", "snapshot tree"],
    "cmd": ["tidectl job list", "tidectl job show", "tidectl job pause", "tidectl job resume", "tidectl snapshot list",
            "tidectl snapshot diff", "tidectl snapshot tag", "tidectl repo init", "tidectl repo stats",
            "tidectl agent add", "tidectl agent list", "tidectl agent remove", "tidectl pool create",
            "tidectl pool list", "tidectl log tail", "tidectl user add", "tidectl fileset edit",
            "tidectl catalog rebuild", "tidectl cert renew", "tidectl server status", "tidectl report weekly"],
    "opt": ["--json", "--quiet", "--host", "--tag", "--since", "--until", "--limit", "--format", "--pool", "--force",
            "--dry-run", "--wait", "--profile", "--config", "--no-color", "--sort", "--verbose", "--fileset"],
    "key": ["server.listen", "server.workers", "storage.pool_dir", "catalog.cache_mb", "log.level",
            "log.keep_days", "agent.heartbeat", "agent.spool_dir", "tls.cert_file", "tls.key_file",
            "job.max_runtime", "job.priority", "compression.level", "compression.algorithm",
            "web.session_timeout", "report.recipients", "catalog.sync_interval", "agent.cpu_quota",
            "pool.reserve_percent", "job.on_missed"],
    "path": ["/var/lib/tidewater/pools/{pool}", "/etc/tidewater/server.toml", "/var/log/tidewater/server.log",
             "/srv/backup/{pool}", "/etc/tidewater/jobs/{job}.toml", "/var/cache/tidewater/catalog",
             "/etc/tidewater/agent.toml", "/var/spool/tidewater"],
    "host": ["fs01", "fs02", "db-prod-1", "db-prod-2", "web-03", "mail01", "build-07", "nas-east", "hv-node-4",
             "ldap-1", "ci-runner-2", "erp-app"],
    "job": ["nightly-home", "db-hourly", "vm-weekly", "fileserver-daily", "mail-archive", "build-cache",
            "finance-share", "wiki-daily", "erp-nightly", "ldap-hourly"],
    "pool": ["primary", "offsite", "archive-2023", "fast-ssd", "cold-tier", "branch-office"],
    "state": ["running", "queued", "paused", "finished", "waiting"],
    "menu": ["Jobs", "Storage pools", "Agents", "Reports", "Users and roles", "Settings", "Job history"],
    "level": ["debug", "info", "warning", "error"],
    "format": ["table", "json", "csv"],
    "algo": ["zstd", "lz4", "none"],
    "who": ["an operator", "the administrator", "a user with the Auditor role", "the service account",
            "a help-desk user", "the owner of the job"],
    "optdesc": ["limits the output to the given host", "prints machine-readable output",
                "shows only entries newer than the given time", "selects the storage pool",
                "suppresses progress messages", "sorts the rows by the given column",
                "shows what would be done without changing anything", "waits until the operation has finished",
                "reads settings from another configuration file", "selects entries with the given tag"],
    "default": ["none", "off", "on", "table", "all pools", "1 hour", "100", "the current host", "30 s"],
    "optdef": ["`{opt}` | {Optdesc}. Can be given more than once; later values override earlier ones.",
               "`{opt} VALUE` | {Optdesc}. The default is {default}.",
               "`{opt}` | {Optdesc}. Ignored when the command runs in a job file.",
               "`{key}` | Applies to every {term} of the server. Takes effect after `systemctl reload tidewater`.",
               "`{key}` | Set per {term}; the server-wide value is used when it is missing.",
               "`{opt}` | {Optdesc}. Combine it with `{opt}` to narrow the result further."],
    "role": ["Administrator", "Operator", "Auditor", "Help desk", "Read-only"],
}
MANUAL_SLOTS["Optdesc"] = [s[0].upper() + s[1:] for s in MANUAL_SLOTS["optdesc"]]

MANUAL_PROSE = [
    "Each {term} belongs to exactly one storage pool, and the pool decides where its pack files are written.",
    "The {term} is described in the job file under `{path}`; the server reads it again when the job next starts.",
    "`{cmd}` shows the {term} of every host that reported in the last {int:2:48} hours.",
    "Use `{cmd} {opt}` when you only need the {term} of a single host, for example `{host}`.",
    "The setting `{key}` applies to the {term} as a whole and cannot be overridden per job.",
    "In release {ver} the {term} gained a `{opt}` option, which {optdesc}.",
    "Operators can pause a {term}, but only an administrator can delete it or change its storage pool.",
    "The web console lists the {term} under **{menu}**, where {who} can also export it as CSV.",
    "A {term} that has not been used for {int:30:400} days is flagged in the weekly report.",
    "Changes to `{key}` take effect after `systemctl reload tidewater`; running jobs keep the old value.",
    "The server writes one line per {term} event to `{path}`, at log level `{level}` or higher.",
    "When two jobs use the same {term}, the one with the higher `job.priority` goes first.",
    "Most installations keep the default of `{key}`; raise it only if the job history shows repeated waits.",
    "The {term} of host `{host}` in our examples holds about {int:2:900} GB in {int:1000:90000} files.",
    "Every {term} carries a unique identifier of the form `{hex:12}`, which the command-line tools accept wherever a name is expected.",
    "The output of `{cmd}` can be filtered with `{opt}` and formatted with `--format {format}`.",
    "If the {term} is busy, the command waits up to {int:5:120} seconds and then gives up with a message naming the job that holds it.",
    "The catalog records for each {term} when it was created, by whom and from which host.",
    "Agents report their state to the server every {int:10:120} seconds; `agent.heartbeat` changes the interval.",
    "The example below assumes a server called `backup01` and an agent on `{host}`.",
    "You can give a {term} a tag with `tidectl snapshot tag`, and most commands accept `--tag` to select by it.",
    "A {term} created by {who} is visible to every user with at least the {role} role.",
    "Compression uses `{algo}` unless `compression.algorithm` says otherwise; the level is set with `compression.level`.",
    "On busy servers, put the {term} on a separate disk from the storage pools.",
    "The job file may name several file sets; each is read in the order given.",
    "The {term} is kept in the catalog even after the host that created it has been removed.",
    "The web console refreshes the **{menu}** page every {int:5:60} seconds while it is open.",
    "For scripted use, `--format json` gives stable field names, while the table layout may change between releases.",
    "The command returns as soon as the request is queued; add `--wait` to block until the {term} is {state}.",
    "Hosts in the examples, such as `{host}` and `{host}`, stand for your own machine names.",
    "The {term} uses the time zone of the server, not that of the agent, for every date it shows.",
    "If `{key}` is missing from `{path}`, the built-in default applies.",
    "Jobs that run longer than `job.max_runtime` are stopped and recorded as incomplete in the job history.",
    "A {term} can be renamed at any time; the identifier stays the same, so scripts that use it keep working.",
    "Administrators receive the weekly report by e-mail if `report.recipients` lists their address.",
    "The figures in this section were measured on a server with {int:8:64} cores and {int:32:512} GB of memory.",
    "Each storage pool reserves `pool.reserve_percent` of its capacity for catalog maintenance.",
    "The {term} and the {term} are independent: changing one never rewrites the other.",
    "See section {ref} for the options that all `tidectl` commands share.",
    "For a list of every setting, see the configuration reference in section {ref}.",
]

MANUAL_STEPS = [
    "Open the web console and select **{menu}**.",
    "Run `{cmd}` and check that `{job}` appears in the output.",
    "Edit `{path}` and set `{key}` to the value you need.",
    "Reload the service with `systemctl reload tidewater`.",
    "Wait until the {term} shows the state **{state}** in the web console.",
    "Run `{cmd} {opt}` to confirm the change.",
    "Select the {term} in the list and click **Edit**.",
    "Enter a name for the {term}; letters, digits and hyphens are allowed.",
    "Choose the storage pool `{pool}` and click **Save**.",
    "Log in to `{host}` as a user with administrator rights.",
    "Check `{path}` for messages at level `{level}`.",
]

MANUAL_ITEMS = [
    "`{key}`: applies to every {term} on the server.",
    "`{opt}`: {optdesc}.",
    "The {term} of each agent, as listed by `{cmd}`.",
    "A copy of `{path}` from before the change.",
    "At least {int:2:40} GB of free space in the storage pool `{pool}`.",
    "The name of the {term} exactly as the web console shows it.",
    "Membership of the {role} role for the user who runs the command.",
    "An agent of release {ver} or later on `{host}`.",
    "The job file of `{job}`, if the {term} is used by a job.",
]

MANUAL_NOTES = [
    "Changing `{key}` affects every {term} in the storage pool, not only new ones.",
    "`{cmd}` asks for confirmation unless `--force` is given. In scripts, give `--force` explicitly.",
    "The web console shows times in the browser's time zone; the command-line tools use the server's.",
    "Deleting a {term} cannot be undone. Export it first if you may need it later.",
    "On servers with more than {int:20:200} agents, `{cmd}` may take several seconds to answer.",
    "Options given on the command line take precedence over `{path}`.",
]

MANUAL_CODE = [
    "$ {cmd} --host {host}\nNAME                STATE      LAST RUN            SIZE\n{job:20}{state:11}2024-0{num:1:9}-1{num:0:9} 0{num:0:9}:{num:10:59}    {num:2:900} GB\n{job:20}{state:11}2024-0{num:1:9}-2{num:0:8} 0{num:0:9}:{num:10:59}    {num:2:900} GB\n{job:20}{state:11}2024-0{num:1:9}-0{num:1:9} 1{num:0:9}:{num:10:59}    {num:2:900} GB",
    "$ {cmd} {opt} --format json\n{\n  \"name\": \"{job}\",\n  \"pool\": \"{pool}\",\n  \"host\": \"{host}\",\n  \"files\": {num:1000:90000},\n  \"bytes\": {num:100000:999999}{num:100:999}{num:100:999}\n}",
    "[server]\nlisten = \"0.0.0.0:9{num:100:899}\"\nworkers = {num:2:32}\n\n[catalog]\ncache_mb = {num:256:4096}\nsync_interval = \"{num:1:30}m\"\n\n[log]\nlevel = \"{level}\"\nkeep_days = {num:7:90}",
    "# {path}\n[job]\nname = \"{job}\"\npool = \"{pool}\"\npriority = {num:1:9}\nmax_runtime = \"{num:1:12}h\"\n\n[fileset.main]\ninclude = [\"/home\", \"/srv/{job}\"]",
    "$ systemctl reload tidewater\n$ {cmd} {opt}\n{job}: reloaded configuration from {path}\n{job}: {num:2:40} agents connected",
    "$ {cmd} --since 2024-0{num:1:9}-01 --format csv > report.csv\n$ head -3 report.csv\njob,host,started,files,bytes,status\n{job},{host},2024-0{num:1:9}-0{num:1:9}T02:00:00Z,{num:1000:90000},{num:100000:999999},ok\n{job},{host},2024-0{num:1:9}-0{num:1:9}T02:00:00Z,{num:1000:90000},{num:100000:999999},ok",
    "[agent]\nserver = \"backup01.example.com\"\nspool_dir = \"/var/spool/tidewater\"\nheartbeat = \"{num:10:120}s\"\ncpu_quota = {num:20:90}",
    "$ {cmd} {opt} {opt}\nHOST          AGENT    LAST SEEN     JOBS\n{host:14}{ver}.{num:0:9}    {num:1:59}s ago       {num:1:9}\n{host:14}{ver}.{num:0:9}    {num:1:59}s ago       {num:1:9}",
]

MANUAL_TABLES = [
    TableSpec("Options of `{cmd}`", ["Option", "Default", "Description"], ["{opt}", "{default}", "{optdesc}"], (4, 8)),
    TableSpec("Throughput of `{job}` on reference hardware", ["Host", "Files", "Data (GB)", "Duration (min)", "Rate (MB/s)"],
              ["{host}", "{int:1000:90000}", "{int:2:900}", "{int:3:240}", "{dec:1:20:110}"], (4, 10)),
    TableSpec("Job history of storage pool `{pool}`", ["Job", "Files", "Changed", "Data (GB)", "Duration (min)"],
              ["{job}", "{int:1000:90000}", "{int:10:5000}", "{dec:1:0.5:90}", "{int:2:180}"], (5, 12)),
    TableSpec("Settings in `{path}`", ["Key", "Type", "Default"], ["{key}", "{ktype}", "{default}"], (5, 10)),
    TableSpec("Compression on the sample data set", ["Algorithm", "Level", "Ratio", "CPU time (s)", "Rate (MB/s)"],
              ["{algo}", "{int:1:19}", "{dec:2:1.1:3.9}", "{int:20:900}", "{int:40:800}"], (4, 9)),
]
MANUAL_SLOTS["ktype"] = ["integer", "string", "duration", "boolean", "size", "list of strings"]

MANUAL = DocSpec(
    id="en-tidewater-admin-guide", lang="en", kind="manual", half="tune",
    title="Tidewater Backup Server 4.2", subtitle="Administrator's Guide",
    byline=["Tidewater Software Ltd.", "Document revision 4.2.1, March 2024"],
    running="Tidewater Backup Server 4.2 - Administrator's Guide", pages=252,
    chapters=["Introduction", "Installation and upgrades", "Repositories and storage pools",
              "Backup jobs and schedules", "Retention and pruning", "Restoring data", "Encryption and keys",
              "Networks and remote agents", "Monitoring, logs and alerts", "Performance tuning",
              "Command reference|definitions", "Configuration reference|definitions", "Troubleshooting"],
    chapter_label="Chapter {n}",
    section_titles=["{Term} settings", "Managing the {term}", "About the {term}", "Checking the {term}",
                    "The {term} in detail", "{Term} and {term}", "Using `{cmd}`", "Common {term} tasks",
                    "Limits of the {term}", "Creating a {term}", "Removing a {term}", "The {term} in the web console",
                    "Scripting the {term}", "Permissions for the {term}"],
    slots=MANUAL_SLOTS, prose=MANUAL_PROSE, targets=MANUAL_TARGETS,
    blocks={"prose": 4.0, "code": 1.6, "steps": 0.8, "items": 0.7, "table": 1.0, "note": 0.5, "deflist": 0.8},
    steps=MANUAL_STEPS, items=MANUAL_ITEMS, notes=MANUAL_NOTES, code=MANUAL_CODE, tables=MANUAL_TABLES,
    lead={"steps": ["To change the {term}:", "Proceed as follows:", "To set this up from the web console:"],
          "items": ["Before you start, have the following at hand:", "The following settings are involved:",
                    "The report lists:"],
          "code": ["For example:", "The command prints one line per job:", "A typical configuration looks like this:",
                   "The following session shows the command and its output:"],
          "table": ["The following table lists the values measured on our test server.", "Table {tab} gives an overview."],
          "deflist": ["The command accepts these options:", "The following keys apply:"]},
    deflist="optdef", index_slots=("term", "cmd", "key", "opt"),
)

# ================================================================================================
# A PhD thesis on deficit irrigation of processing tomato

THESIS_ABSTRACT = """
Water for irrigation in the semi-arid south of the peninsula has become scarce and its price has
risen, while processing tomato remains one of the most water-demanding crops of the region. This
thesis examines whether deficit irrigation can keep yields and fruit quality acceptable with
substantially less water. Six irrigation treatments were compared over three seasons (2019-2021) at
the Cortijo Alto experimental farm: full irrigation (T100), two sustained deficits (T75, T50), regulated
deficits during the vegetative phase (RDI-V), during flowering and fruit set (RDI-F) and during
ripening (RDI-R), and partial root-zone drying (PRD-50).

Yield, fruit quality, water use, plant water status and economic returns were measured in every
season. The results show that the timing of the deficit matters more than its size, and they lead to
practical recommendations for growers whose water allocation falls short of crop demand.
"""

THESIS_TARGETS = """
@ 1 | Motivation
The immediate motive for this work was the drought of 2017, when the river basin authority cut the
allocation for the irrigation district from 6,500 to 3,900 cubic metres per hectare, a reduction of
40 %. Many growers left part of their land fallow rather than risk a tomato crop with too little
water, and the district asked the university for field evidence on how a smaller allocation is best
spread over the season.
p: what event prompted the research in the first place => drought of 2017
k: allocation fallow district 3,900
---
@ 2 | Partial root-zone drying
Partial root-zone drying (PRD) wets only one side of the root system at a time and switches sides
every ten to fourteen days. Roots in the drying soil produce abscisic acid, which travels to the
leaves in the xylem sap and partly closes the stomata, so that the plant transpires less although
the roots on the wet side keep it supplied. The saving of water thus comes from a chemical signal,
not from a lack of water in the leaves.
p: why would watering only half of the roots make the plant use less water => abscisic acid
k: xylem sap stomata switches sides
---
@ 3 | Site and soil
The experiments were carried out at the Cortijo Alto experimental farm (37.9° N, 4.8° W, 190 m above
sea level). The soil is a deep calcareous clay loam (38 % clay, 34 % silt, 28 % sand) with 1.4 %
organic matter and a pH of 8.1. Field capacity, determined in situ after a heavy wetting, was
0.31 m³/m³ and the permanent wilting point 0.17 m³/m³, giving an available water of about 140 mm in
the top metre.
p: what kind of ground were the tomatoes grown in => calcareous clay loam
k: organic matter 8.1 calcareous
---
@ 3 |
Irrigation was scheduled twice a week from a daily water balance following the FAO-56 procedure.
Crop evapotranspiration was calculated as the product of reference evapotranspiration, taken from an
automatic weather station 300 m from the plots, and a crop coefficient of 0.45 in the initial stage,
1.15 at mid-season and 0.80 before harvest. The full treatment T100 received the calculated amount
minus effective rainfall; the other treatments received their share of it.
p: how did you decide how much water to give the plants each time => daily water balance following the FAO-56 procedure
k: weather station 300 coefficient 0.45
---
@ 3 | Stem water potential
Midday stem water potential was measured every week between 12:00 and 14:00 solar time with a
Scholander pressure chamber. Two leaves per plot, close to the main stem and shaded, were enclosed in
plastic bags covered with aluminium foil at least one hour before the measurement, so that their
water potential came into balance with that of the stem.
p: how did you measure how thirsty the plants were => Scholander pressure chamber
k: aluminium foil pressure chamber
---
@ 3 |
Fruit quality was determined on a sample of twenty red fruits per plot taken at harvest. The fruits
were blended and the juice filtered; total soluble solids were read with a digital refractometer
(Atago PR-32) at 20 °C and expressed in °Brix, and titratable acidity was obtained by titration with
0.1 N sodium hydroxide to pH 8.1.
p: how was the sweetness of the tomatoes measured => digital refractometer
k: twenty red fruits blended refractometer
---
@ 4 | Blossom-end rot
Blossom-end rot affected 6.8 % of the fruits under T50 in 2020, against 1.2 % under full irrigation.
The disorder appeared mainly in the first truss and only in the season with a hot spell in the week
after fruit set. Since leaf calcium did not differ between treatments, we attribute it to the
irregular supply of water to the fruit at that time rather than to a lack of calcium in the soil.
p: did giving less water lead to more tomatoes with black patches at the bottom => 6.8 % of the fruits
k: first truss hot spell calcium
---
@ 4 |
On 3 August 2021 a storm brought 42 mm of rain in under two hours, ten days before the planned harvest.
In the following week 11 % of the ripe fruits of T50 and RDI-R split, compared with 4 % in T100, because
fruits that had grown under water deficit took up water faster through the skin once the soil was
soaked. The harvest of those plots was brought forward by four days.
p: what happened to the crop after the big rainstorm late in the last season => split
k: storm 42 mm split harvest
---
@ 6 | Water productivity
Water productivity, the marketable yield per cubic metre of water applied, was highest in RDI-R in
all three seasons, with a mean of 24.6 kg/m³ against 17.9 kg/m³ in T100. The sustained deficit T50 came
second in 2019 and 2021, but not in 2020, when its losses to blossom-end rot outweighed the water it
saved.
p: which watering regime produced the most tomatoes for each unit of water => highest in RDI-R
k: 24.6 kg marketable cubic metre
---
@ 6 |
Drainage below the root zone was measured with two weighing lysimeters of 2 × 2 m planted like the
surrounding plots. Under T100 it amounted to 38 mm per season, nearly all of it after rain in spring;
under the deficit treatments no drainage was recorded at all, so that the water saved by them was not
simply water that full irrigation would have lost below the roots.
p: did any of the irrigation water seep down past the roots => 38 mm per season
k: weighing lysimeters drainage
---
@ 7 | Canopy temperature
Canopy temperature was read at solar noon with a hand-held infrared thermometer held at 30° from the
horizontal, on the sunlit side of the rows. From it we calculated the crop water stress index with a
non-water-stressed baseline fitted to T100 in 2019. The index rose above 0.3 whenever the stem water
potential fell below -1.0 MPa, so it could replace the pressure chamber for routine scheduling.
p: can you tell plants need water just from how warm their leaves are => crop water stress index
k: infrared thermometer solar noon baseline
---
@ 8 | Net margin
At the water price of 0.12 EUR/m³ charged by the district in 2021 and a tomato price of 92 EUR/t, the
highest net margin was obtained with T75: 5,840 EUR/ha, against 5,610 EUR/ha for T100. If water cost
0.30 EUR/m³, as the district has proposed for dry years, RDI-R would become the most profitable
treatment.
p: which irrigation option would earn the grower the most money => highest net margin was obtained with T75
k: 0.30 dry years profitable
---
@ 9 | Limitations
All experiments used a single hybrid, H-1015, on one soil. Hybrids with a longer ripening period or a
smaller root system may respond differently to a deficit during ripening, and on sandy soils, which
store less water, the same reduction of irrigation would produce a stress earlier and more severe.
The recommendations below should therefore be tested on farm before they are adopted widely.
p: would these findings hold for other tomato varieties or lighter soils => single hybrid
k: hybrid h-1015 sandy soils
---
@ 10 | Recommendations for growers
Growers whose allocation covers about 70 % of crop demand should keep full irrigation until the first
fruits turn red and then cut irrigation by half for the rest of the season, rather than reducing
every irrigation by the same share. Irrigation should stop 25 days before harvest at the earliest,
and the soil should not be allowed to dry out in the two weeks after fruit set.
p: if I only have about two thirds of the water the crop needs, when should I cut back => until the first fruits turn red
k: first fruits turn red
"""

THESIS_SLOTS = {
    "treat": ["T100", "T75", "T50", "RDI-V", "RDI-F", "RDI-R", "PRD-50"],
    "dtreat": ["T75", "T50", "RDI-V", "RDI-F", "PRD-50"],
    "season": ["2019", "2020", "2021"],
    "var": ["total fresh biomass", "leaf area index", "the number of fruits per plant", "mean fruit weight",
            "fruit dry matter content", "titratable acidity", "the colour index of the fruit", "stomatal conductance",
            "harvest index", "lycopene content", "the pH of the juice", "vitamin C content", "plant height",
            "the number of trusses per plant", "root length density", "leaf nitrogen content",
            "the proportion of green fruit at harvest", "fruit firmness"],
    "stage": ["the vegetative phase", "flowering", "fruit set", "fruit growth", "ripening", "early establishment"],
    "month": ["April", "May", "June", "July", "August", "September"],
    "author": ["Alvarado", "Benedetti", "Castell", "Dorsey", "Esparza", "Fenwick", "Galli", "Harkness", "Ibarra",
               "Kessler", "Lindqvist", "Moreau", "Nakamura", "Okafor", "Pereira", "Quintana", "Rahimi", "Santoro",
               "Tanaka", "Uribe", "Vasquez", "Whitfield", "Yilmaz", "Zanetti"],
    "initial": ["A", "B", "C", "D", "E", "F", "G", "H", "J", "K", "L", "M", "N", "P", "R", "S", "T"],
    "region": ["southern Italy", "central Spain", "the Central Valley of California", "northern Greece", "Tunisia",
               "the Ebro valley", "southern Portugal", "Anatolia", "the Po valley", "Western Australia"],
    "journal": ["Agricultural Water Management", "Irrigation Science", "Scientia Horticulturae",
                "Field Crops Research", "European Journal of Agronomy", "Agronomy Journal",
                "Journal of Horticultural Science and Biotechnology", "HortScience", "Acta Horticulturae"],
    "reftitle": ["Effects of water deficit during {stage} on {var} of processing tomato",
                 "Yield response of drip-irrigated tomato to reduced irrigation in {region}",
                 "Regulated deficit irrigation and {var}: a {num:2:5}-year field study",
                 "Sensitivity of {var} to water stress in field-grown tomato",
                 "Irrigation scheduling of processing tomato from soil moisture sensors",
                 "A comparison of deficit irrigation strategies for tomato in {region}",
                 "Modelling the response of tomato yield to seasonal water supply",
                 "Timing of water deficit and fruit quality in tomato for processing"],
    "method": ["a linear mixed model", "a two-way analysis of variance", "Tukey's test at P < 0.05",
               "a repeated-measures analysis", "Pearson correlation", "a segmented regression"],
    "sdate": ["2 May", "9 May", "16 May", "23 May", "30 May", "6 June", "13 June", "20 June", "27 June", "4 July",
              "11 July", "18 July", "25 July", "1 August", "8 August", "15 August", "22 August"],
    "source": ["Season", "Block (season)", "Treatment", "Season × treatment", "Residual"],
    "finding": ["fruit number is set early and is hard to recover once lost",
                "mild stress during ripening raises soluble solids without harming yield",
                "sustained deficits reduce canopy size more than fruit weight",
                "the response to water depends strongly on the cultivar",
                "soil type changes how quickly a deficit develops",
                "stress in the vegetative phase is largely compensated later"],
}

THESIS_PROSE = [
    "In {season}, {dtreat} reduced {var} by {pct:3:35} % relative to T100 (P < 0.05).",
    "Differences in {var} between {dtreat} and {dtreat} were not significant in {season}.",
    "{Var} responded almost linearly to the seasonal amount of water applied (R² = 0.{num:55:97}).",
    "These findings agree with {author} et al. {cite}, who reported a similar response of {var} in {region}.",
    "Several authors {cite} have argued that {var} is more sensitive to water deficit during {stage} than at other stages.",
    "Table {tab} summarises the analysis of variance for {var} across the three seasons.",
    "The interaction between season and treatment was significant for {var} but not for {var}.",
    "Rainfall between transplanting and harvest amounted to {int:20:140} mm in {season}, most of it in {month}.",
    "{Var} was measured on {int:4:20} plants per plot at intervals of {int:10:20} days.",
    "The plots were laid out as randomised complete blocks with four replicates, each plot of six rows 25 m long.",
    "All data were analysed with {method}; means were separated with Tukey's test at P < 0.05.",
    "{Author} and {author} {cite} found that {finding}.",
    "Earlier work in {region} {cite} suggested that {finding}, which our data only partly confirm.",
    "The same trend was observed for {var}, although the differences were smaller in {season}.",
    "Figure {fig} shows the course of {var} during the {season} season for T100 and {dtreat}.",
    "In contrast to {author} et al. {cite}, we found no effect of {dtreat} on {var}.",
    "The lower {var} under {dtreat} was already apparent {int:20:60} days after transplanting.",
    "Across seasons, {var} was closely related to {var} (r = 0.{num:60:95}).",
    "The seasonal amount of irrigation ranged from {int:180:320} mm in {dtreat} to {int:430:560} mm in T100 in {season}.",
    "This agrees with the view that {finding} {cite}.",
    "Much of the variation in {var} between seasons can be traced to the weather during {stage}.",
    "As discussed in section {ref}, the response of {var} to water supply depends on {stage}.",
    "Transplanting took place between 20 April and 5 May, and the crop was harvested once, by machine, when about 85 % of the fruits were red.",
    "The drip lines, with emitters of 1.6 L/h every 0.3 m, were buried 20 cm below the surface of each bed.",
    "Fertiliser was applied through the drip system in weekly doses, the same in every treatment.",
    "{Var} in {dtreat} recovered almost completely once full irrigation resumed.",
    "No treatment affected {var} in {season}, which we attribute to the {int:40:110} mm of rain that fell during {stage}.",
    "The effect of {dtreat} on {var} was consistent in direction but differed in size between seasons.",
    "Reviews by {author} {cite} and {author} {cite} give an overview of these studies.",
    "The difference between T100 and {dtreat} in {var} amounted to {pct:2:25} % averaged over the three seasons.",
    "Weeds were controlled by hand, and pests and diseases according to local practice.",
    "Samples were dried at 65 °C to constant weight to determine dry matter.",
    "Chapter {num:3:9} returns to the question of how {var} relates to water supply.",
]

THESIS_TABLES = [
    TableSpec("{Var} by treatment and season", ["Treatment", "2019", "2020", "2021", "Mean"],
              ["seq:treat", "{dec:1:20:95}", "{dec:1:20:95}", "{dec:1:20:95}", "{dec:1:20:95}"], (7, 7)),
    TableSpec("Weather at Cortijo Alto during the {season} season", ["Month", "Tmax (°C)", "Tmin (°C)", "Rain (mm)", "ET0 (mm)"],
              ["seq:month", "{dec:1:22:37}", "{dec:1:9:21}", "{dec:1:0:60}", "{dec:1:90:210}"], (6, 6)),
    TableSpec("Analysis of variance for {var}", ["Source", "df", "F", "P"],
              ["seq:source", "{num:1:3}", "{dec:2:0.3:40}", "{dec:3:0.001:0.9}"], (5, 5)),
    TableSpec("Soil water content (% vol.) at {num:2:9}0 cm depth in {season}",
              ["Date", "T100", "T75", "T50", "RDI-V", "RDI-F", "PRD-50"],
              ["seq:sdate", "{dec:1:24:31}", "{dec:1:19:29}", "{dec:1:17:26}", "{dec:1:18:30}", "{dec:1:18:30}",
               "{dec:1:18:29}"], (6, 12)),
    TableSpec("Correlation between {var} and {var}", ["Season", "n", "r", "Slope", "Intercept"],
              ["seq:season", "{num:24:96}", "{dec:2:0.4:0.95}", "{dec:3:0.01:2}", "{dec:2:-5:20}"], (3, 3)),
]

THESIS = DocSpec(
    id="en-deficit-irrigation-thesis", lang="en", kind="paper", half="report",
    title="Deficit irrigation of processing tomato under semi-arid conditions",
    subtitle="Yield, fruit quality and water productivity over three seasons",
    byline=["Elena M. Ferreira", "Thesis submitted for the degree of Doctor of Philosophy",
            "School of Agriculture and Environment, University of Westmarch, 2022"],
    running="E. M. Ferreira - Deficit irrigation of processing tomato", pages=112,
    chapters=["Introduction", "Literature review", "Materials and methods", "Yield and yield components",
              "Fruit quality", "Water use and water productivity", "Plant water status", "Economic assessment",
              "General discussion", "Conclusions and recommendations", "References|references",
              "Appendix: supplementary tables|tables"],
    chapter_label="Chapter {n}",
    section_titles=["{Var}", "Effect of the treatments on {var}", "{Var} in the {season} season",
                    "Seasonal differences in {var}", "Measurement of {var}", "{Var} and water supply",
                    "Statistical analysis of {var}", "{Var} under deficit irrigation", "Response of {var} to {stage}"],
    slots=THESIS_SLOTS, prose=THESIS_PROSE, targets=THESIS_TARGETS, style="serif", citations=88,
    blocks={"prose": 6.0, "table": 1.3, "figure": 0.8, "items": 0.3},
    items=["{Var}, measured on {int:4:20} plants per plot.", "{Var} in {dtreat} compared with T100.",
           "The effect of water deficit during {stage}.", "Data from the {season} season only."],
    lead={"items": ["The following variables were recorded:", "Three questions were addressed:",
                    "The analysis covered:"],
          "table": ["The values are means of four replicates.", "Table {tab} gives the means per treatment."]},
    figures=["{Var} of T100 and {dtreat} during the {season} season.", "Seasonal course of soil water content under {dtreat}.",
             "Relation between the water applied and {var}.", "{Var} at harvest in {season}; bars show the standard error."],
    tables=THESIS_TABLES,
    references=["{author}, {initial}., {author}, {initial}. ({year:1994:2021}). {reftitle}. {journal} {num:12:180}, {num:1:400}-{num:401:999}.",
                "{author}, {initial}., {author}, {initial}., {author}, {initial}. ({year:1994:2021}). {reftitle}. {journal} {num:12:180}, {num:1:400}-{num:401:999}.",
                "{author}, {initial}. ({year:1990:2020}). {reftitle}. PhD thesis, University of {author}ville.",
                "{author}, {initial}., et al. ({year:2000:2021}). {reftitle}. {journal} {num:1:60}: {num:100:999}."],
    abstract=THESIS_ABSTRACT, keywords="deficit irrigation; processing tomato; water productivity; fruit quality",
)


def documents() -> list[DocSpec]:
    return [MANUAL, THESIS]
