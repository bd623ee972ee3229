// The frames a verification is served in, by address. Both places that look read this one pattern:
// the page script, at an iframe of its document (leaving out an invisible reCAPTCHA's badge), and the
// merge, at a visible child frame that reported no CAPTCHA of its own (its text may not have loaded).

/**
 * `captcha` anywhere (reCAPTCHA, hCaptcha, FunCaptcha and self-hosted ones, as images and fields are
 * read for it), Cloudflare's challenge host and Turnstile, and Arkose Labs.
 */
export const CHALLENGE_FRAME = /captcha|challenges\.cloudflare\.com|turnstile|arkoselabs/i
