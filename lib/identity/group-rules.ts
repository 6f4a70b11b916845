// Group → team and role rules that instance admins define (Admin → Sign-in), e.g. group
// `eng-admins` → admin of team Engineering. Teams a rule names are "managed": at every single
// sign-on, the person's membership there follows the claims (group-sync.ts).
import { z } from "zod";
import { audited, type Actor } from "../audit";
import { db } from "../db/client";
import { Conflict, NotFound } from "../errors";
import { idField } from "../validation";

export const groupRuleSchema = z.object({
  group: z
    .string()
    .trim()
    .min(1, "Enter the group value as the provider sends it.")
    .max(200, "At most 200 characters.")
    .refine((v) => !/[\u0000-\u001f\u007f]/.test(v), "Contains a control character."),
  teamId: idField,
  role: z.enum(["admin", "member"], { error: "Choose admin or member." }),
});
export type GroupRuleInput = z.infer<typeof groupRuleSchema>;
export const removeRuleSchema = z.object({ ruleId: idField });

export type GroupRuleView = { id: string; group: string; teamId: string; teamName: string; role: "admin" | "member" };

export async function listGroupRules(): Promise<GroupRuleView[]> {
  const prisma = await db();
  const rows = await prisma.ssoRule.findMany({ include: { team: { select: { name: true } } }, orderBy: [{ group: "asc" }, { createdAt: "asc" }] });
  return rows.map((r) => ({ id: r.id, group: r.group, teamId: r.teamId, teamName: r.team.name, role: r.role }));
}

/** Every team of the installation, by name: the teams a rule may name. */
export async function ruleTeamChoices(): Promise<{ id: string; name: string }[]> {
  const prisma = await db();
  return prisma.team.findMany({ select: { id: true, name: true }, orderBy: { name: "asc" } });
}

export async function addGroupRule(actor: Actor, input: GroupRuleInput): Promise<void> {
  const prisma = await db();
  const team = await prisma.team.findUnique({ where: { id: input.teamId }, select: { id: true } });
  if (!team) throw NotFound("No such team.");
  if (await prisma.ssoRule.findUnique({ where: { group_teamId: { group: input.group, teamId: input.teamId } } })) {
    throw Conflict("A rule for this group and team exists already. Remove it first to change its role.", {
      group: "A rule for this group and team exists already.",
    });
  }
  await audited(
    actor,
    (tx) => tx.ssoRule.create({ data: input }),
    (rule) => ({
      action: "sso.rule.create",
      targetType: "sso_rule",
      targetId: rule.id,
      teamId: input.teamId,
      data: { group: input.group, role: input.role },
    }),
  );
}

export async function removeGroupRule(actor: Actor, ruleId: string): Promise<void> {
  await audited(
    actor,
    async (tx) => {
      const rule = await tx.ssoRule.findUnique({ where: { id: ruleId } });
      if (!rule) throw NotFound("No such rule.");
      await tx.ssoRule.delete({ where: { id: ruleId } });
      return rule;
    },
    (rule) => ({ action: "sso.rule.delete", targetType: "sso_rule", targetId: rule.id, teamId: rule.teamId, data: { group: rule.group, role: rule.role } }),
  );
}
