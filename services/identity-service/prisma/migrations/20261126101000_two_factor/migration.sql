-- Two-factor authentication (TOTP): the enrolment's secret; users.two_factor_enabled is GitLab's otp_required_for_login.

-- AlterTable
ALTER TABLE "users" ADD COLUMN     "otp_secret" TEXT;
