// The one class of workerd's built-in `cloudflare:email` module the Worker uses (the Workers
// types package would bring hundreds of global declarations that clash with Node's).
declare module "cloudflare:email" {
  /** A mail for a `send_email` binding: envelope sender, envelope recipient, raw MIME. */
  export class EmailMessage {
    constructor(from: string, to: string, raw: string | ReadableStream);
  }
}
