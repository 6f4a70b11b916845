// Boot: migrate and check the secret key before the first request. A failure stops the process with
// the reason, instead of a server that answers 500 to everything.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { ready } = await import("./lib/startup");
  try {
    await ready();
  } catch (err) {
    console.error(`\nParley cannot start: ${(err as Error).message}\n`);
    process.exit(1);
  }
}
