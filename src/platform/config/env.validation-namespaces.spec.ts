import { defineConfig, isInteger } from './define-config.js';
import { validateEnvironment } from './env.validation.js';

describe("validateEnvironment over a module list's namespaces", () => {
  const widgets = defineConfig('widgets', { WIDGET_COUNT: isInteger(1, 9) }, () => ({ count: Number(process.env.WIDGET_COUNT || 1) }));

  it('checks the variables of the namespaces it is given, and only those', () => {
    expect(widgets.KEY).toBe('CONFIGURATION(widgets)');
    expect(() => validateEnvironment([widgets])({ WIDGET_COUNT: '12' })).toThrow(
      /WIDGET_COUNT must be an integer from 1 to 9 \(got "12"\)/,
    );
    expect(() => validateEnvironment([widgets])({ WIDGET_COUNT: '3' })).not.toThrow();
    expect(() => validateEnvironment([])({ WIDGET_COUNT: '12' })).not.toThrow();
  });

  it('refuses a namespace defined twice and a variable checked by two namespaces', () => {
    expect(() => validateEnvironment([widgets, defineConfig('widgets', {}, () => ({}))])).toThrow(/"widgets" is defined twice/);
    expect(() => validateEnvironment([widgets, defineConfig('gadgets', { WIDGET_COUNT: isInteger(1, 2) }, () => ({}))])).toThrow(
      /WIDGET_COUNT is checked by two configuration namespaces \("widgets" and "gadgets"\)/,
    );
  });
});
