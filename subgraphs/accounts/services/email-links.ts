import type { PlatformServices } from '../../../shared/services.js';

/** The mails the accounts domain sends, each carrying one link under PUBLIC_URL. */
function link(services: PlatformServices, page: string, token: string) {
  return `${services.config.publicUrl}/${page}?token=${encodeURIComponent(token)}`;
}

/**
 * An agent names its address itself, so its mail says whose account the link confirms: a person
 * who does not know the agent must not take its account for theirs.
 */
export async function mailVerificationLink(services: PlatformServices, email: string, token: string, kind: 'user' | 'agent' = 'user') {
  const url = link(services, 'verify-email', token);
  const confirm =
    kind === 'agent'
      ? `An AI agent registered an account with this address. If you operate that agent, confirm it by opening the link below (valid for 24 hours); it signs you in to the agent's account, whose API keys the agent keeps:`
      : `Confirm that this address is yours by opening the link below (valid for 24 hours):`;
  await services.mailer.send({
    to: email,
    subject: 'Verify your e-mail address',
    text: `${confirm}\n\n${url}\n\nIf you did not ask for this, ignore this mail.`,
    link: url,
  });
}

export async function mailPasswordResetLink(services: PlatformServices, email: string, token: string) {
  const url = link(services, 'reset-password', token);
  await services.mailer.send({
    to: email,
    subject: 'Reset your password',
    text: `Choose a new password by opening the link below (valid for 1 hour):\n\n${url}\n\nIf you did not ask for this, ignore this mail; your password is unchanged.`,
    link: url,
  });
}

export async function mailInvitationLink(services: PlatformServices, email: string, organizationName: string, token: string) {
  const url = link(services, 'accept-invite', token);
  await services.mailer.send({
    to: email,
    subject: `You are invited to join ${organizationName}`,
    text: `You have been invited to join the organization "${organizationName}". Accept within 7 days:\n\n${url}`,
    link: url,
  });
}
