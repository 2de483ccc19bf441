// The crypto half of the public pages' Content-Security-Policy (the policy itself is
// contracts/page-safety.ts): inline scripts by hash, free-form staff scripts by nonce.
import crypto from 'node:crypto';

export const sha256Source = (code: string) => `'sha256-${crypto.createHash('sha256').update(code).digest('base64')}'`;

export const newNonce = () => crypto.randomBytes(16).toString('base64url');
