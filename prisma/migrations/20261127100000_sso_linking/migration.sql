-- Single sign-on linking: which memberships a group rule granted (the rules change and remove only
-- those), the token endpoint origin an admin confirmed, email domains trusted for linking, and
-- whether group rules manage every membership.

-- AlterTable
ALTER TABLE "Membership" ADD COLUMN     "source" TEXT;

-- AlterTable
ALTER TABLE "SsoProvider" ADD COLUMN     "rulesManageAll" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "tokenOrigin" TEXT,
ADD COLUMN     "trustedDomains" TEXT NOT NULL DEFAULT '';

-- Memberships a group rule made before this column existed (its audit event, written in the same
-- transaction, says it added them) stay managed by the rules.
UPDATE "Membership" AS m SET "source" = 'sso'
WHERE EXISTS (
    SELECT 1 FROM "AuditEvent" AS e
    WHERE e."action" = 'sso.membership' AND e."teamId" = m."teamId" AND e."targetId" = m."userId"
      AND e."data"->>'from' IS NULL AND e."createdAt" >= m."createdAt"
);
