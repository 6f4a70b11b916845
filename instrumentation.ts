// Boot: migrate and check the secret key before the first request (Node.js runtime only).
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { bootOrExit } = await import("./lib/startup");
  await bootOrExit();
}
