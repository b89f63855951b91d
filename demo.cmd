@echo off
rem The mcpwire demo on Windows: what ./demo does.
rem   demo.cmd          builds what it needs on first use, then runs the demo client against the
rem                     demo server; exits 0 only when the wire stayed clean.
rem   demo.cmd server   runs the bare demo server on this process's stdin and stdout, as an MCP
rem                     host starts it (build output goes to stderr, never to the wire).
rem   demo.cmd server --lean   the same in the lean profile (examples\lean.args).
rem   demo.cmd --build  builds again.
setlocal EnableExtensions
set "here=%~dp0"
set "target=%here%examples\target"
set "args=%target%\server-windows.args"

if "%~1"=="--build" goto build
if not exist "%args%" goto build
goto run

:build
echo demo: building with the Maven wrapper (mvnw.cmd -DskipTests package); Maven's progress follows on stderr 1>&2
pushd "%here%"
call mvnw.cmd -B -DskipTests package -pl examples -am 1>&2
if errorlevel 1 (
  popd
  exit /b 1
)
popd
set "jar="
for %%j in ("%target%\examples-*.jar") do echo %%~nj| findstr /e /c:"-sources" /c:"-javadoc" >nul || set "jar=%%~fj"
rem Built on JDK 22 and newer, the FFM provider is on the module path and serves: give it native access.
set "access=com.sun.jna"
if exist "%target%\modules\mcpwire-platform-ffm-*.jar" set "access=com.sun.jna,io.mcpwire.platform.ffm"
rem The server's command line; the module path takes Windows' separator, ';'. JVM log output goes
rem to stderr, since anything on stdout before the claim is on the wire.
> "%args%" (
  echo -Xlog:disable
  echo -Xlog:all=warning:stderr
  echo --enable-native-access=%access%
  echo -p "%target:\=/%/modules;%jar:\=/%"
  echo -m io.mcpwire.examples/io.mcpwire.examples.DemoServer
)
if "%~1"=="--build" exit /b 0

:run
rem The server's own status is the script's: outside a parenthesised block, since cmd expands
rem %errorlevel% in a block when it reads the block, before anything in it has run.
if not "%~1"=="server" goto client
if "%~2"=="--lean" (
  java "@%here%examples\lean.args" @"%args%"
) else (
  java @"%args%"
)
exit /b %errorlevel%

:client
set "jar="
for %%j in ("%target%\examples-*.jar") do echo %%~nj| findstr /e /c:"-sources" /c:"-javadoc" >nul || set "jar=%%~fj"
java --enable-native-access=com.sun.jna -p "%target%\modules;%jar%" -m io.mcpwire.examples/io.mcpwire.examples.DemoClient java @"%args%"
exit /b %errorlevel%
