// The settings schema is shared with the window (settings screen); main re-exports it.
export * from '../../shared/settings-schema';
