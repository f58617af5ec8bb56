import { validateEnvironment } from '../../platform/config/index.js';
import { adminConfig } from './admin.config.js';

describe('adminConfig', () => {
  const validate = validateEnvironment([adminConfig]);
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });

  it('is off without ADMIN_PORT, and on the loopback address unless ADMIN_HOST says otherwise', () => {
    delete process.env.ADMIN_PORT;
    delete process.env.ADMIN_HOST;
    expect(adminConfig()).toEqual({ port: undefined, host: '127.0.0.1' });
    Object.assign(process.env, { ADMIN_PORT: '9090', ADMIN_HOST: '0.0.0.0' });
    expect(adminConfig()).toEqual({ port: 9090, host: '0.0.0.0' });
  });

  it.each([
    [{ ADMIN_PORT: 'admin' }, /ADMIN_PORT must be an integer from 0 to 65535 \(got "admin"\)/],
    [{ ADMIN_PORT: '70000' }, /ADMIN_PORT must be an integer from 0 to 65535/],
    [{ ADMIN_PORT: '3000' }, /ADMIN_PORT must differ from PORT \(got "3000"\)/],
    [{ ADMIN_PORT: '8080', PORT: '8080' }, /ADMIN_PORT must differ from PORT/],
    [{ ADMIN_HOST: '  ' }, /ADMIN_HOST must not be empty/],
  ])('refuses %j at start', (env, message) => {
    expect(() => validate(env)).toThrow(message);
  });

  it('accepts another port than PORT, and 0 (any free port) beside it', () => {
    expect(() => validate({ ADMIN_PORT: '9090', PORT: '3000', ADMIN_HOST: '10.0.0.7' })).not.toThrow();
    expect(() => validate({ ADMIN_PORT: '0', PORT: '0' })).not.toThrow();
  });
});
