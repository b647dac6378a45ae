import express, { type Request, type Response, type Router } from 'express';
import type { ApolloServer } from '@apollo/server';
import type { RequestContext } from '../../shared/context.js';
import { html, sendPage, type Html } from './html.js';
import { runOperation } from './run-operation.js';

const form = express.urlencoded({ extended: false, limit: '8kb', parameterLimit: 10 });

const tokenOf = (value: unknown) => (typeof value === 'string' && /^[A-Za-z0-9_-]{16,128}$/.test(value) ? value : null);

function box(res: Response, status: number, title: string, content: Html) {
  sendPage(res, status, title, html`<div class="box"><h1>${title}</h1>${content}</div>`);
}

const missingToken = (res: Response) =>
  box(res, 400, 'This link is incomplete', html`<p class="bad">The link carries no valid token. Open the whole link from the e-mail, or ask for a new one.</p>`);

/**
 * The pages an e-mail link opens. Opening one spends nothing: the token is spent only by the form's
 * POST, so a mail scanner that fetches links cannot use it up. The token never reaches a log (only
 * paths are logged) or another site (no third-party resource, no referrer).
 */
export function emailPages(router: Router, graphql: ApolloServer<RequestContext>): void {
  router.get('/verify-email', (req: Request, res: Response) => {
    const token = tokenOf(req.query.token);
    if (!token) return missingToken(res);
    box(res, 200, 'Confirm your e-mail address', html`<p>Press the button to confirm that this address is yours.</p>
<form method="post" action="/verify-email"><input type="hidden" name="token" value="${token}"><button type="submit">Confirm my address</button></form>`);
  });

  router.post('/verify-email', form, async (req: Request, res: Response) => {
    const token = tokenOf(req.body?.token);
    if (!token) return missingToken(res);
    const outcome = await runOperation(graphql, res.locals.context as RequestContext,
      'mutation($input: TokenInput!) { verifyEmail(input: $input) { accessToken refreshToken user { email kind } } }', { input: { token } });
    if (outcome.error) {
      return box(res, 400, 'The address was not confirmed', html`<p class="bad">${outcome.error.message}</p><p class="muted">Code: <code>${outcome.error.code}</code>. A link works once and for 24 hours; ask for a new one with <code>POST /auth/resend-verification</code>.</p>`);
    }
    const { accessToken, refreshToken, user } = outcome.data.verifyEmail;
    box(res, 200, 'Address confirmed', html`<p class="ok" id="outcome">${user.email} is confirmed.</p>
<p>${user.kind === 'agent' ? 'You are signed in to the agent’s account: the tokens below act for it.' : 'You can sign in now, and claim your signup bonus with POST /wallet/bonus/signup.'}</p>
<details><summary>Session tokens (shown once)</summary><p class="muted">Access token (15 minutes):</p><pre>${accessToken}</pre><p class="muted">Refresh token:</p><pre>${refreshToken}</pre></details>`);
  });

  router.get('/reset-password', (req: Request, res: Response) => {
    const token = tokenOf(req.query.token);
    if (!token) return missingToken(res);
    box(res, 200, 'Choose a new password', html`<form method="post" action="/reset-password"><input type="hidden" name="token" value="${token}">
<label for="password">New password</label><input id="password" type="password" name="password" autocomplete="new-password" minlength="10" required>
<p class="muted">At least 10 characters, not a common password. Every session and earlier link is signed out.</p>
<button type="submit">Set the new password</button></form>`);
  });

  router.post('/reset-password', form, async (req: Request, res: Response) => {
    const token = tokenOf(req.body?.token);
    if (!token) return missingToken(res);
    const outcome = await runOperation(graphql, res.locals.context as RequestContext,
      'mutation($input: ResetPasswordInput!) { resetPassword(input: $input) { passwordReset } }',
      { input: { token, newPassword: String(req.body?.password ?? '') } });
    if (outcome.error) {
      return box(res, 400, 'The password was not changed', html`<p class="bad">${outcome.error.message}</p><p class="muted">Code: <code>${outcome.error.code}</code>.</p>
${!/token/.test(outcome.error.code) ? html`<p><a href="/reset-password?token=${token}">Try another password</a></p>` : ''}`);
    }
    box(res, 200, 'Password changed', html`<p class="ok" id="outcome">Your new password is set. Sign in with it (<code>POST /auth/login</code>).</p>`);
  });
}
