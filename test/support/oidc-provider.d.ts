// oidc-provider ships without type declarations; the test support uses a small part of it.
declare module "oidc-provider";
