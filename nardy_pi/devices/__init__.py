"""Board hardware: GPIO status LEDs and buttons, the point LED strip, LED hints."""
