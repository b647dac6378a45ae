/** oidc-provider ships no type declarations; the tests use its documented API loosely. */
declare module 'oidc-provider' {
  const Provider: any;
  export default Provider;
}
