// Boot: validate the settings, migrate and check the secret key before the first request (Node.js
// runtime only). Start-up that fails stops the process with the reason (bootOrExit), never a server
// answering 500s. Then the orderly stop on SIGTERM/SIGINT is wired up (lib/startup.ts stopServer).
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { bootOrExit, installStop } = await import("./lib/startup");
  await bootOrExit();
  await installStop();
}
