; Inno Setup 6.3+ script: installs the PyInstaller bundle dist\pdfdesk\ per user or for all users.
; packaging\windows\build.ps1 builds and checks the bundle, then runs:
;   iscc /DAppVersion=0.1.0 packaging\windows\pdfdesk.iss   ->  dist\pdfdesk-0.1.0-setup.exe
; pdfdesk.exe is the window (Start menu, desktop, "Open with"); pdfdesk-cli.exe is the same program
; with a console, for `pdfdesk-cli tool ...`, `pdfdesk-cli mcp` and `pdfdesk-cli --self-test`.
#ifndef AppVersion
  #define AppVersion "0.1.0"
#endif

[Setup]
AppId={{8F7C2A7E-4C1B-4E0E-9F43-6D2B3C1E5A10}
AppName=pdfdesk
AppVersion={#AppVersion}
AppPublisher=pdfdesk developers
VersionInfoVersion={#AppVersion}
DefaultDirName={autopf}\pdfdesk
DefaultGroupName=pdfdesk
PrivilegesRequired=lowest
PrivilegesRequiredOverridesAllowed=dialog
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
LicenseFile=..\..\LICENSE
SetupIconFile=..\..\resources\pdfdesk.ico
UninstallDisplayIcon={app}\pdfdesk.exe
OutputDir=..\..\dist
OutputBaseFilename=pdfdesk-{#AppVersion}-setup
Compression=lzma2/max
SolidCompression=yes
WizardStyle=modern
ChangesAssociations=yes

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; Flags: unchecked
Name: "pdfassoc"; Description: "Offer pdfdesk in ""Open with"" for PDF files"

[Files]
Source: "..\..\dist\pdfdesk\*"; DestDir: "{app}"; Flags: recursesubdirs createallsubdirs ignoreversion

[Icons]
Name: "{group}\pdfdesk"; Filename: "{app}\pdfdesk.exe"
Name: "{group}\Uninstall pdfdesk"; Filename: "{uninstallexe}"
Name: "{autodesktop}\pdfdesk"; Filename: "{app}\pdfdesk.exe"; Tasks: desktopicon

[Registry]
Root: HKA; Subkey: "Software\Classes\pdfdesk.pdf"; ValueType: string; ValueData: "PDF document"; Flags: uninsdeletekey; Tasks: pdfassoc
Root: HKA; Subkey: "Software\Classes\pdfdesk.pdf\DefaultIcon"; ValueType: string; ValueData: "{app}\pdfdesk.exe,0"; Tasks: pdfassoc
Root: HKA; Subkey: "Software\Classes\pdfdesk.pdf\shell\open\command"; ValueType: string; ValueData: """{app}\pdfdesk.exe"" ""%1"""; Tasks: pdfassoc
Root: HKA; Subkey: "Software\Classes\.pdf\OpenWithProgids"; ValueType: string; ValueName: "pdfdesk.pdf"; ValueData: ""; Flags: uninsdeletevalue; Tasks: pdfassoc

[Run]
Filename: "{app}\pdfdesk.exe"; Description: "{cm:LaunchProgram,pdfdesk}"; Flags: nowait postinstall skipifsilent
