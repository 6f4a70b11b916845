-- Email: the address an invite was sent to, and password resets a person asks for themselves
-- ("Forgot password?"), which belong to no team.

-- AlterTable
ALTER TABLE "Invite" ADD COLUMN     "email" TEXT;

-- AlterTable
ALTER TABLE "PasswordReset" ALTER COLUMN "teamId" DROP NOT NULL;
