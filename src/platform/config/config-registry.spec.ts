import { configNamespaces, defineConfig } from './config-registry.js';
import { isInteger } from './env-check.js';
import { validateEnvironment } from './env.validation.js';

describe('defineConfig', () => {
  const widgets = defineConfig('widgets', { WIDGET_COUNT: isInteger(1, 9) }, () => ({ count: Number(process.env.WIDGET_COUNT || 1) }));

  it('registers the namespace, so the configuration module loads it and the boot validation checks its variables', () => {
    expect(configNamespaces()).toContain(widgets);
    expect(widgets.KEY).toBe('CONFIGURATION(widgets)');
    expect(() => validateEnvironment({ WIDGET_COUNT: '12' })).toThrow(/WIDGET_COUNT must be an integer from 1 to 9 \(got "12"\)/);
    expect(() => validateEnvironment({ WIDGET_COUNT: '3' })).not.toThrow();
  });

  it('refuses a namespace defined twice and a variable checked by two namespaces', () => {
    expect(() => defineConfig('widgets', {}, () => ({}))).toThrow(/"widgets" is defined twice/);
    expect(() => defineConfig('gadgets', { WIDGET_COUNT: isInteger(1, 2) }, () => ({}))).toThrow(
      /WIDGET_COUNT is checked by two configuration namespaces \("widgets" and "gadgets"\)/,
    );
  });
});
