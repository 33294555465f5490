public import CSDL2
public import FrameLink
