import { ApiKey } from './api-key.js';
import { EmailToken } from './email-token.js';
import { Invitation } from './invitation.js';
import { Membership } from './membership.js';
import { Notification } from './notification.js';
import { Organization } from './organization.js';
import { AuthSession, RefreshToken } from './session.js';
import { SocialIdentity } from './social-identity.js';
import { UserAccount } from './user.js';

export { ApiKey, EmailToken, Invitation, Membership, Notification, Organization, AuthSession, RefreshToken, SocialIdentity, UserAccount };

export const accountsEntities = [
  UserAccount,
  Organization,
  Membership,
  AuthSession,
  RefreshToken,
  ApiKey,
  EmailToken,
  Invitation,
  Notification,
  SocialIdentity,
];
