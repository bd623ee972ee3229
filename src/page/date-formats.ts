// How the value of each date and time input type is written: HTML's own formats, whatever the page
// shows. The browser refuses a value written any other way and leaves the field empty, so the text
// model is told the format, and a refused value is reported with it.

export const DATE_FORMATS: ReadonlyMap<string, string> = new Map([
  ['date', 'YYYY-MM-DD'],
  ['time', 'hh:mm'],
  ['datetime-local', 'YYYY-MM-DDThh:mm'],
  ['month', 'YYYY-MM'],
  ['week', 'YYYY-Www'],
])
