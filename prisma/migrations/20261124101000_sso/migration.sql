-- Single sign-on: the instance's OpenID Connect provider (secret sealed, write-only) and the rules
-- that map a group claim to a role in a team.

-- CreateTable
CREATE TABLE "SsoProvider" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "issuer" TEXT NOT NULL,
    "clientId" TEXT NOT NULL,
    "clientSecretEnc" TEXT,
    "scopes" TEXT NOT NULL,
    "groupsClaim" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SsoProvider_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SsoRule" (
    "id" TEXT NOT NULL,
    "group" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "role" "TeamRole" NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SsoRule_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "SsoRule_teamId_idx" ON "SsoRule"("teamId");

-- CreateIndex
CREATE UNIQUE INDEX "SsoRule_group_teamId_key" ON "SsoRule"("group", "teamId");

-- AddForeignKey
ALTER TABLE "SsoRule" ADD CONSTRAINT "SsoRule_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;
