/** What runner creation, registration and verification answer (GitLab's RunnerRegistrationDetails). */
export function runnerTokenEntity(id: number, token: string) {
  return { id, token, token_expires_at: null };
}
