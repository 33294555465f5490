#!/usr/bin/env python3
"""Ask an X11 window to close, as a window manager's close button does.

Usage: x11_close_window.py WINDOW_NAME [TIMEOUT_SECONDS]

Waits (up to TIMEOUT_SECONDS, default 10) for a top-level window whose name (WM_NAME) contains
WINDOW_NAME, then sends it the ICCCM WM_DELETE_WINDOW client message. SDL turns that into
SDL_WINDOWEVENT_CLOSE and, for the last window, SDL_QUIT: the application closes normally.

`xdotool windowclose` destroys the window instead (the application then dies on an X error) and
Debian's xdotool has no `windowquit`, hence this script. It needs nothing but Python and libX11
(which SDL already depends on), through ctypes. Exit status: 0 sent, 1 no such window, 2 no display.
"""

import ctypes
import ctypes.util
import sys
import time

Window = ctypes.c_ulong
Atom = ctypes.c_ulong


class XClientMessageEvent(ctypes.Structure):
    _fields_ = [
        ("type", ctypes.c_int),
        ("serial", ctypes.c_ulong),
        ("send_event", ctypes.c_int),
        ("display", ctypes.c_void_p),
        ("window", Window),
        ("message_type", Atom),
        ("format", ctypes.c_int),
        ("data", ctypes.c_long * 5),
    ]


class XEvent(ctypes.Union):
    _fields_ = [("xclient", XClientMessageEvent), ("pad", ctypes.c_long * 24)]


CLIENT_MESSAGE = 33
NO_EVENT_MASK = 0


def load_xlib():
    xlib = ctypes.cdll.LoadLibrary(ctypes.util.find_library("X11") or "libX11.so.6")
    xlib.XOpenDisplay.restype = ctypes.c_void_p
    xlib.XOpenDisplay.argtypes = [ctypes.c_char_p]
    xlib.XDefaultRootWindow.restype = Window
    xlib.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
    xlib.XQueryTree.argtypes = [
        ctypes.c_void_p, Window, ctypes.POINTER(Window), ctypes.POINTER(Window),
        ctypes.POINTER(ctypes.POINTER(Window)), ctypes.POINTER(ctypes.c_uint),
    ]
    xlib.XFetchName.argtypes = [ctypes.c_void_p, Window, ctypes.POINTER(ctypes.c_char_p)]
    xlib.XFree.argtypes = [ctypes.c_void_p]
    xlib.XInternAtom.restype = Atom
    xlib.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
    xlib.XSendEvent.argtypes = [ctypes.c_void_p, Window, ctypes.c_int, ctypes.c_long, ctypes.POINTER(XEvent)]
    xlib.XFlush.argtypes = [ctypes.c_void_p]
    xlib.XCloseDisplay.argtypes = [ctypes.c_void_p]
    return xlib


def find_window(xlib, display, window, wanted):
    name = ctypes.c_char_p()
    if xlib.XFetchName(display, window, ctypes.byref(name)) and name.value is not None:
        found = wanted in name.value
        xlib.XFree(name)
        if found:
            return window
    root, parent = Window(), Window()
    children = ctypes.POINTER(Window)()
    count = ctypes.c_uint()
    if not xlib.XQueryTree(display, window, ctypes.byref(root), ctypes.byref(parent),
                           ctypes.byref(children), ctypes.byref(count)):
        return None
    try:
        for index in range(count.value):
            match = find_window(xlib, display, children[index], wanted)
            if match:
                return match
    finally:
        if children:
            xlib.XFree(children)
    return None


def main():
    if len(sys.argv) < 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    wanted = sys.argv[1].encode()
    timeout = float(sys.argv[2]) if len(sys.argv) > 2 else 10.0
    xlib = load_xlib()
    display = xlib.XOpenDisplay(None)
    if not display:
        print("x11_close_window: cannot open the X display (is DISPLAY set?)", file=sys.stderr)
        return 2
    try:
        deadline = time.monotonic() + timeout
        window = None
        while window is None:
            window = find_window(xlib, display, xlib.XDefaultRootWindow(display), wanted)
            if window is None:
                if time.monotonic() > deadline:
                    print(f"x11_close_window: no window named like {sys.argv[1]!r}", file=sys.stderr)
                    return 1
                time.sleep(0.05)
        event = XEvent()
        event.xclient.type = CLIENT_MESSAGE
        event.xclient.window = window
        event.xclient.message_type = xlib.XInternAtom(display, b"WM_PROTOCOLS", 0)
        event.xclient.format = 32
        event.xclient.data[0] = xlib.XInternAtom(display, b"WM_DELETE_WINDOW", 0)
        event.xclient.data[1] = 0  # CurrentTime
        xlib.XSendEvent(display, window, 0, NO_EVENT_MASK, ctypes.byref(event))
        xlib.XFlush(display)
        return 0
    finally:
        xlib.XCloseDisplay(display)


if __name__ == "__main__":
    sys.exit(main())
