# Build the Windows installer: the PyInstaller bundle, its self-test, then Inno Setup 6.
# Usage (PowerShell, repository root): powershell -File packaging\windows\build.ps1
#   -> dist\pdfdesk\ (pdfdesk.exe for the window, pdfdesk-cli.exe for terminals) and dist\pdfdesk-<version>-setup.exe
$ErrorActionPreference = "Stop"
function Invoke-Checked { & $args[0] $args[1..($args.Count - 1)]; if ($LASTEXITCODE -ne 0) { throw "failed: $args" } }

$version = (Select-String -Path pyproject.toml -Pattern '^version = "(.*)"').Matches[0].Groups[1].Value
if (Test-Path build\bundle\venv) { Remove-Item -Recurse -Force build\bundle\venv }
Invoke-Checked python -m venv build\bundle\venv
Invoke-Checked build\bundle\venv\Scripts\python -m pip install --quiet --disable-pip-version-check . "pyinstaller>=6.10"
Invoke-Checked build\bundle\venv\Scripts\pyinstaller --noconfirm --clean --log-level WARN --distpath dist `
    --workpath build\bundle\work packaging\pdfdesk.spec

# pdfdesk.exe has no console (PowerShell would not wait for it); the console twin runs the check.
$env:QT_QPA_PLATFORM = "offscreen"
Invoke-Checked dist\pdfdesk\pdfdesk-cli.exe --self-test
Remove-Item Env:\QT_QPA_PLATFORM

$iscc = (Get-Command iscc -ErrorAction SilentlyContinue).Source
if (-not $iscc) { $iscc = Join-Path ${env:ProgramFiles(x86)} "Inno Setup 6\ISCC.exe" }
Invoke-Checked $iscc "/DAppVersion=$version" packaging\windows\pdfdesk.iss
