// Boot: validate the settings, migrate and check the secret key before the first request (Node.js
// runtime only). Start-up that fails stops the process with the reason (bootOrExit), never a server
// answering 500s. Then the orderly stop on SIGTERM/SIGINT is wired up (lib/shutdown.ts).
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { bootOrExit } = await import("./lib/startup");
  await bootOrExit();
  const { installStop } = await import("./lib/shutdown");
  await installStop();
}
