// The set-up code: while Parley waits for its first admin, anyone who reaches /setup first could
// claim the installation. So start-up prints a random code in the server log, and setup from another
// machine (anything but a browser on this machine opening localhost; see fromThisMachine) must give
// it. The code is made once per installation (kept in the settings, so every server process prints
// the same one) and deleted when setup is done.
import crypto from "node:crypto";
import { db } from "../db/client";
import type { PrismaClient } from "../db/generated/client";

const KEY = "setup_code";
const ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"; // no 0/O, 1/I

function newCode(): string {
  const chars = Array.from(crypto.randomBytes(12), (b) => ALPHABET[b % ALPHABET.length]).join("");
  return `${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8)}`;
}

const normalise = (code: string) => code.toUpperCase().replace(/[^A-Z0-9]/g, "");

/** The installation's set-up code, made on first call (start-up calls this while setup is needed). */
export async function setupCode(client?: Pick<PrismaClient, "setting">): Promise<string> {
  const prisma = client ?? (await db());
  await prisma.setting.createMany({ data: { key: KEY, value: newCode() }, skipDuplicates: true });
  return (await prisma.setting.findUniqueOrThrow({ where: { key: KEY } })).value;
}

/** Whether `given` is the set-up code (compared in constant time, ignoring case, spaces and dashes). */
export async function isSetupCode(given: string): Promise<boolean> {
  const expected = crypto
    .createHash("sha256")
    .update(normalise(await setupCode()))
    .digest();
  const actual = crypto.createHash("sha256").update(normalise(given)).digest();
  return crypto.timingSafeEqual(expected, actual) && normalise(given).length > 0;
}

export async function forgetSetupCode(client?: Pick<PrismaClient, "setting">): Promise<void> {
  await (client ?? (await db())).setting.deleteMany({ where: { key: KEY } });
}
