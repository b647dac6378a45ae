import { OAuthAuthorizationState } from './authorization-state.js';
import { OAuthConnection } from './connection.js';
import { OAuthProvider } from './provider.js';

export const oauthEntities = [OAuthProvider, OAuthConnection, OAuthAuthorizationState];
