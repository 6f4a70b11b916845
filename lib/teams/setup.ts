// First run: on an empty installation, the first visitor creates the admin account and names the
// team. A claim row makes this happen once even when two people try at the same time. From another
// machine than the server's own, the set-up code of the server log is needed too (setup-code.ts).
import { z } from "zod";
import { db } from "../db/client";
import { AppError, Conflict } from "../errors";
import { fromThisMachine } from "../security/client-address";
import { teamNameField } from "../validation";
import { audited } from "../audit";
import { signUp, signUpFields, strongPassword } from "../auth/accounts";
import { seedEnvProvider } from "../providers/seed-env";
import { forgetSetupCode, isSetupCode } from "./setup-code";

const CLAIM = "setup_claimed";

export const setupSchema = signUpFields
  .extend({ teamName: teamNameField, setupCode: z.string().trim().max(40, "At most 40 characters.").optional() })
  .superRefine(strongPassword);
export type SetupInput = z.infer<typeof setupSchema>;

export async function needsSetup(): Promise<boolean> {
  const prisma = await db();
  const claim = await prisma.setting.findUnique({ where: { key: CLAIM } });
  if (claim) return false;
  return (await prisma.user.count()) === 0;
}

export async function createFirstAdmin(input: SetupInput, headers: Headers): Promise<{ userId: string; teamId: string }> {
  const prisma = await db();
  if (!(await needsSetup())) throw Conflict("Parley is already set up. Sign in instead.");
  if (!fromThisMachine(headers) && !(await isSetupCode(input.setupCode ?? ""))) {
    const message = input.setupCode ? "This is not the set-up code. Copy it from the server's log." : "Enter the set-up code from the server's log.";
    throw new AppError("SetupCode", 403, message, { setupCode: message });
  }
  try {
    await prisma.setting.create({ data: { key: CLAIM, value: new Date().toISOString() } });
  } catch {
    throw Conflict("Parley is already set up. Sign in instead.");
  }
  let userId: string;
  try {
    ({ userId } = await signUp({ name: input.name, email: input.email, password: input.password }, headers));
  } catch (err) {
    await prisma.setting.delete({ where: { key: CLAIM } }).catch(() => {});
    throw err;
  }
  const team = await audited(
    { user: { id: userId } },
    async (tx) => {
      const team = await tx.team.create({ data: { name: input.teamName } });
      await tx.membership.create({ data: { teamId: team.id, userId, role: "admin" } });
      return team;
    },
    (team) => ({ teamId: team.id, action: "team.create", targetType: "team", targetId: team.id, data: { name: team.name, firstRun: true } }),
  );
  await forgetSetupCode(prisma);
  await seedEnvProvider(prisma, team.id);
  return { userId, teamId: team.id };
}
