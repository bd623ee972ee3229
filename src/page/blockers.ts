import { CHALLENGE_FRAME } from './challenge-frames.ts'
import { attributeOf, classesOf, classNameOf, idOf, localNameOf } from './dom-safe.ts'
import { boxOf, rendered, vh, vw } from './layout.ts'
import { shorten } from './text.ts'
import type { RawBlocker } from './types.ts'
import { centre, clipToViewport, inViewport, round } from './visibility.ts'

// What on a frame stops a run before any decision, beyond single controls: human verification,
// recognised by the widgets of the common providers or by its wording in the common languages, and
// a canvas that is the page's surface.

// The widgets of the common providers, found by the observe walk as it visits each element
// (`isChallengeWidget`): looking them up by tag, class and id made the browser go over a large page
// once per name after each change, about 6 ms on a shop page of 20,000 elements.
/** reCAPTCHA v3 and invisible widgets only show a badge and ask nothing. */
const INVISIBLE = /size=invisible/
/** Containers the providers' scripts render into: reCAPTCHA, hCaptcha, Turnstile, GeeTest's holder and panel. */
const WIDGET_CLASSES = ['g-recaptcha', 'h-captcha', 'cf-turnstile', 'geetest_holder', 'geetest_panel']
/** What every class of WIDGET_CLASSES holds: a class attribute without any is passed over at once. */
const WIDGET_CLASS_HINT = /captcha|turnstile|geetest/
/** Arkose Labs' default container. */
const WIDGET_ID = 'FunCaptcha'
/** Self-hosted image CAPTCHAs (Securimage, KCAPTCHA, framework plug-ins) name the picture or its field for what it is. */
const NAMED_CAPTCHA = /captcha/i

/**
 * A provider's widget, visible or not: its challenge frame, the container its script renders into (not
 * an invisible one), Arkose's container, or an image named for a CAPTCHA. `tag` is the element's local name.
 */
export function isChallengeWidget(el: Element, tag: string): boolean {
  if (idOf(el) === WIDGET_ID) return true
  if (tag === 'iframe') {
    const src = (el as HTMLIFrameElement).src
    return CHALLENGE_FRAME.test(src) && !INVISIBLE.test(src)
  }
  if (tag === 'img') return NAMED_CAPTCHA.test(attributeOf(el, 'src') ?? '') || NAMED_CAPTCHA.test(idOf(el))
  const classes = attributeOf(el, 'class')
  if (!classes || !WIDGET_CLASS_HINT.test(classes)) return false
  return WIDGET_CLASSES.some((name) => classesOf(el).contains(name)) && attributeOf(el, 'data-size') !== 'invisible'
}

/** Frames first, then the containers, then images: the order a page's widgets are judged in. */
function rank(el: Element): number {
  const tag = localNameOf(el)
  return tag === 'iframe' ? 0 : tag === 'img' ? 2 : 1
}

/**
 * How a verification asks in the common languages, lower-case: "I am not a robot" and "type the code
 * from the picture" (the prompt beside an image CAPTCHA's field). Whole phrases, so that an ordinary
 * page speaking of a discount code or an image gallery does not match; the English wording, and the
 * word CAPTCHA itself, are read with the viewport text.
 */
const CAPTCHA_PHRASES: Record<string, string[]> = {
  en: ['enter the code from the image', 'enter the characters you see', 'type the characters you see', 'type the text from the image', 'enter the text from the image'],
  es: ['no soy un robot', 'introduce los caracteres', 'escriba los caracteres', 'código de la imagen', 'verificación humana'],
  fr: ['je ne suis pas un robot', "code de l'image", 'saisissez les caractères', 'recopiez le code', 'vérifiez que vous êtes humain'],
  de: ['ich bin kein roboter', 'zeichen aus dem bild', 'code aus dem bild', 'bestätigen sie, dass sie ein mensch sind'],
  it: ['non sono un robot', "codice nell'immagine", "codice dell'immagine", 'inserisci i caratteri'],
  pt: ['não sou um robô', 'código da imagem', 'digite os caracteres', 'verificação humana'],
  nl: ['ik ben geen robot', 'code uit de afbeelding', 'voer de tekens in', 'typ de tekens'],
  pl: ['nie jestem robotem', 'kod z obrazka', 'przepisz kod', 'przepisz znaki'],
  cs: ['nejsem robot', 'kód z obrázku', 'opište kód', 'přepište kód'],
  sk: ['nie som robot', 'kód z obrázku', 'opíšte kód', 'prepíšte kód'],
  ru: ['я не робот', 'код с картинки', 'код с изображения', 'символы с картинки', 'символы с изображения'],
  uk: ['я не робот', 'код з картинки', 'код із зображення', 'символи з картинки', 'символи із зображення'],
  tr: ['ben robot değilim', 'resimdeki kodu', 'resimdeki karakterleri'],
  ja: ['私はロボットではありません', '画像の文字', '画像認証'],
  // A bare 验证码 is also the code a text message brings: only the picture's code is a CAPTCHA.
  zh: ['我不是机器人', '我不是機器人', '图形验证码', '图片验证码', '圖形驗證碼', '图片中的字符'],
  ko: ['로봇이 아닙니다', '자동입력 방지', '보안문자'],
}
const PHRASES = Object.values(CAPTCHA_PHRASES).flat()

/** Whether a text field is named for a CAPTCHA (its `name` or `id`). */
export function captchaField(el: Element): boolean {
  return NAMED_CAPTCHA.test(attributeOf(el, 'name') ?? '') || NAMED_CAPTCHA.test(idOf(el))
}

/**
 * The first visible challenge widget of a known provider, or `field`, a visible field named for one.
 * `widgets` are the frame's, as the walk found them in document order.
 */
export function captchaWidget(field: Element | undefined, widgets: readonly Element[]): RawBlocker | null {
  const judged = [...widgets].sort((a, b) => rank(a) - rank(b))
  for (const el of field ? [field, ...judged] : judged) {
    const rect = boxOf(el)
    if (rect.width <= 0 || rect.height <= 0 || !inViewport(el) || !rendered(el)) continue
    const at = centre(rect)
    if (at) return { kind: 'captcha', text: shorten(attributeOf(el, 'src') || attributeOf(el, 'name') || classNameOf(el) || localNameOf(el), 80), rect: round(rect), at }
  }
  return null
}

/** A verification phrase in the viewport text or in the names of the offered fields. */
export function captchaPhrase(texts: string[]): RawBlocker | null {
  for (const text of texts) {
    const lower = text.toLowerCase()
    const phrase = PHRASES.find((found) => lower.includes(found))
    if (phrase) return { kind: 'captcha', text: phrase, rect: { x: 0, y: 0, width: vw, height: vh }, at: [vw >> 1, vh >> 1] }
  }
  return null
}

// A canvas is the surface of the page (a game, a map, a drawing or a canvas-drawn app) when it takes
// at least half the viewport; a chart beside an article or an empty default 300×150 canvas does not,
// and the page's controls are offered as usual.
const SURFACE_SHARE = 0.5

/** Whether the visible part of a canvas covers enough of the viewport to be what the page is. */
export function canvasSurface(rect: DOMRect): boolean {
  const part = clipToViewport(rect)
  return !!part && (part.right - part.left) * (part.bottom - part.top) >= SURFACE_SHARE * vw * vh
}
