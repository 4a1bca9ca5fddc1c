# Build the Windows installer: the PyInstaller bundle, then Inno Setup (iscc on PATH).
# Usage (PowerShell, repository root): powershell -File packaging\windows\build.ps1
$ErrorActionPreference = "Stop"
$version = (Select-String -Path pyproject.toml -Pattern '^version = "(.*)"').Matches[0].Groups[1].Value
python -m venv build\bundle\venv
build\bundle\venv\Scripts\python -m pip install --quiet . "pyinstaller>=6.10"
build\bundle\venv\Scripts\pyinstaller --noconfirm --clean --distpath dist --workpath build\bundle\work packaging\pdfdesk.spec
$env:QT_QPA_PLATFORM = "offscreen"
dist\pdfdesk\pdfdesk.exe --self-test
if ($LASTEXITCODE -ne 0) { throw "self-test failed" }
iscc "/DAppVersion=$version" packaging\windows\pdfdesk.iss
